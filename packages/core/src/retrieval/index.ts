export { embedQuery } from "./channels.js";
export { CHANNELS, type Channel, type ChannelScore } from "./fuse-rankings.js";
export { bestPassage, type FoundPassage } from "./passage-results.js";
export { type FusionSettings, inStage, type SearchResult } from "./query-ports.js";
export { withRelevance, wordCoverage } from "./relevance.js";
export { rerank } from "./rerank.js";
export { segmentOf } from "./rerank-pages.js";
export {
  type FusionConfig,
  fusionConfigSchema,
  type RetrievalConfig,
  type RetrievalOptions,
  type RetrievalPreset,
  resolveRetrieval,
  retrievalOptionsSchema,
} from "./retrieval-config.js";
export { rankContext } from "./retrieve-pipeline.js";
export { rankMemories } from "./search-pipeline.js";
export { asGiven, speakerQuery } from "./speaker-query.js";
export { resolveTimeMentions, storedTimeMentions, timeNote } from "./time-mentions.js";
