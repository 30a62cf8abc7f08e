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
export {
  type ExistingPersona,
  FACT_SLOTS,
  FEEDBACK_EVIDENCE,
  type FeedbackCandidate,
  type PageInput,
  type SegmentInput,
} from "./extraction-prompts.js";
export {
  type CallControl,
  type ExtractedFact as ModelExtractedFact,
  type ExtractedTrait,
  type FeedbackParse,
  type LlmExtractor,
  type LlmExtractorOptions,
  llmExtractor,
  type NewTopic,
  type PageSummaries,
  type PersonaExtraction,
} from "./llm-extractor.js";
export { OFFLINE_EMBEDDING_DIMENSIONS, offlineEmbeddingModel } from "./offline-embedding-model.js";
export { type OnnxEmbeddingOptions, type OnnxPooling, onnxEmbeddingModel } from "./onnx-embedding-model.js";
export { parseJsonTolerant } from "./parse-json-tolerant.js";
export {
  type LanguageModel,
  modelName,
  type StructuredCallOptions,
  structuredCall,
} from "./structured-call.js";
