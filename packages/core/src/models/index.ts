export {
  type Embedder,
  type EmbedderOptions,
  type EmbeddingModel,
  embedderFromModel,
  normalize,
} from "./embedder.js";
export { OFFLINE_EMBEDDING_DIMENSIONS, offlineEmbeddingModel } from "./offline-embedding-model.js";
