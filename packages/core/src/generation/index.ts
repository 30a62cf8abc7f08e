export {
  type AssembledContext,
  assembleContext,
  type ContextFact,
  type ContextInput,
  type ContextPage,
  type ContextProfileItem,
  type ContextTurn,
  DEFAULT_CONTEXT_BUDGET,
} from "./assemble-context.js";
export { sanitizeMemoryText } from "./sanitize-memory-text.js";
export { defaultTokenizer, type Tokenizer } from "./tokenizer.js";
