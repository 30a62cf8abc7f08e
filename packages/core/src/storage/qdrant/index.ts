export { MIN_SERVER_VERSION } from "./collections.js";
export type { QdrantCollectionSettings, QdrantStorageOptions } from "./qdrant-options.js";
export { QdrantStorage, qdrantStorage } from "./qdrant-storage.js";
