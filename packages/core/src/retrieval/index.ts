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
export { rocchio } from "./query-feedback.js";
export { type RerankCandidate, type RerankOptions, rerank } from "./rerank.js";
export { type RetrievalConfig, type RetrievalOptions, retrievalConfigSchema } from "./retrieval-config.js";
export { applySpeakerPrior, namedSpeakers } from "./speaker-prior.js";
