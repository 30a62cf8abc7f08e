export {
  failingEmbeddingModel,
  type HashEmbeddingOptions,
  hashEmbeddingModel,
} from "./hash-embedding-model.js";
