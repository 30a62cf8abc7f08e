export { type ChannelAnswers, type ChannelQuery, embedQuery, runChannels } from "./channels.js";
export { applyContentPrior, contentWeight } from "./content-prior.js";
export {
  CHANNELS,
  type Channel,
  type ChannelScore,
  FUSION_METHODS,
  type FusedHit,
  type FusionMethod,
  type FusionOptions,
  fuseRankings,
} from "./fuse-rankings.js";
export { bestPassage, type FoundPassage, passageFilter, toTurns } from "./passage-results.js";
export { rocchio } from "./query-feedback.js";
export {
  asResult,
  type FusionSettings,
  inStage,
  type QueryPorts,
  type RetrievePolicy,
  type RetrievePorts,
  type SearchResult,
} from "./query-ports.js";
export { withRelevance, wordCoverage } from "./relevance.js";
export { type RerankCandidate, type RerankOptions, rerank } from "./rerank.js";
export { rerankPages, segmentOf } from "./rerank-pages.js";
export {
  type FusionConfig,
  fusionConfigSchema,
  RETRIEVAL_PRESETS,
  type RetrievalConfig,
  type RetrievalOptions,
  type RetrievalPreset,
  resolveRetrieval,
  retrievalConfigSchema,
  retrievalOptionsSchema,
} from "./retrieval-config.js";
export {
  factEvidenceTurns,
  type RankedContext,
  type RetrieveQuery,
  rankContext,
  turnsInSegments,
} from "./retrieve-pipeline.js";
export { applyPriors, expandByFeedback, rankMemories } from "./search-pipeline.js";
export { applySpeakerPrior, namedSpeakers } from "./speaker-prior.js";
export { asGiven, firstPerson, type QueryForms, speakerQuery, withoutName } from "./speaker-query.js";
export { resolveTimeMentions, storedTimeMentions, type TimeMention, timeNote } from "./time-mentions.js";
export { applyTimePrior, asksWhen, queryTimeRange, type TimeRange } from "./time-prior.js";
