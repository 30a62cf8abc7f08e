export {
  checkedEmbedder,
  type Embedder,
  type EmbedderOptions,
  type EmbeddingModel,
  embedderFromModel,
} from "./embedder.js";
export {
  EMBEDDER_SPEC_FORMS,
  type EmbedderSpec,
  type EmbedderSpecOptions,
  embedderFromSpec,
  parseEmbedderSpec,
} from "./embedder-spec.js";
export { FEEDBACK_EVIDENCE } from "./extraction-prompts.js";
export {
  type ExtractedFact as ModelExtractedFact,
  type LlmExtractorOptions,
  llmExtractor,
} from "./llm-extractor.js";
export { offlineEmbeddingModel } from "./offline-embedding-model.js";
export { type OnnxEmbeddingOptions, type OnnxPooling, onnxEmbeddingModel } from "./onnx-embedding-model.js";
export { type LanguageModel, modelName, structuredCall } from "./structured-call.js";
