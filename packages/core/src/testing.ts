// Helpers for testing code built on Engram: instant deterministic embedding models, a small ONNX model
// folder written on the spot, records with test defaults, and the backend behind an engine. Not for
// production paths.
export { storageOf } from "./engine/engine-backends.js";
export {
  failingEmbeddingModel,
  type HashEmbeddingOptions,
  hashEmbeddingModel,
  proseLanguageModel,
  seededRandom,
  type TinyOnnxModelOptions,
  testRecord,
  writeTinyOnnxModel,
} from "./testing/index.js";
