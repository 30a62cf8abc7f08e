// The Qdrant backend: memory in a Qdrant server, over its HTTP API.
export {
  MIN_SERVER_VERSION as QDRANT_MIN_SERVER_VERSION,
  type QdrantCollectionSettings,
  QdrantStorage,
  type QdrantStorageOptions,
  type QdrantVectorSettings,
  qdrantStorage,
} from "./storage/qdrant/index.js";
