export { MIN_SERVER_VERSION } from "./collections.js";
export type {
  QdrantCollectionSettings,
  QdrantStorageOptions,
  QdrantVectorSettings,
} from "./qdrant-options.js";
export { QdrantStorage, qdrantStorage } from "./qdrant-storage.js";
