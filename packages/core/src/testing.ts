// Helpers for testing code built on Engram: instant deterministic embedding models, records with test
// defaults, and the backend behind an engine. Not for production paths.
export { storageOf } from "./engine/engine-backends.js";
export {
  failingEmbeddingModel,
  type HashEmbeddingOptions,
  hashEmbeddingModel,
  proseLanguageModel,
  seededRandom,
  testRecord,
} from "./testing/index.js";
