// A local ONNX sentence-embedding model as the engine's embedder, run by the optional peer
// @huggingface/transformers (installed by the applications that use it, like the Qdrant client).
export { type OnnxEmbeddingOptions, type OnnxPooling, onnxEmbeddingModel } from "./ai/index.js";
