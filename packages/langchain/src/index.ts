export {
  EngramChatMessageHistory,
  type EngramChatMessageHistoryOptions,
} from "./engram-chat-message-history.js";
export { EngramMemory, type EngramMemoryOptions } from "./engram-memory.js";
export {
  type EngramDocumentMetadata,
  EngramRetriever,
  type EngramRetrieverOptions,
} from "./engram-retriever.js";
export { type StoredMessage, toLangChainMessage, toStoredMessage } from "./langchain-messages.js";
export type { WriteErrorInfo } from "./turn-writer.js";
