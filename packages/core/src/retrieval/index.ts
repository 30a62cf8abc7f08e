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
export { type RerankCandidate, type RerankOptions, rerank } from "./rerank.js";
