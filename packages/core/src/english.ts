/**
 * `@engram/core/english`: the offline English extractor, the default `Extractor` of `createEngram` when no
 * language model is given. Pass it (or another language's extractor) as `createEngram({ extractor })`.
 */
export { offlineExtractor } from "./english/index.js";
