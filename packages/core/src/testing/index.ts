export {
  failingEmbeddingModel,
  type HashEmbeddingOptions,
  hashEmbeddingModel,
} from "./hash-embedding-model.js";
export { proseLanguageModel } from "./prose-language-model.js";
export { seededRandom } from "./seeded-random.js";
export { testRecord } from "./test-record.js";
export { type TinyOnnxModelOptions, writeTinyOnnxModel } from "./tiny-onnx-model.js";
