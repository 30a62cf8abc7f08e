export { applyFeedback, type FeedbackResult } from "./apply-feedback.js";
export { type HeatParts, heatParts, type SegmentHeat, segmentHeat } from "./heat.js";
export { modelExtractor } from "./model-extractor.js";
export { offlineExtractor } from "./offline-extractor.js";
export { groupPages, type Page } from "./pages.js";
export {
  POLICY_PRESETS,
  type Policy,
  type PolicyOption,
  type PolicyPreset,
  policySchema,
  resolvePolicy,
} from "./policy.js";
export { type SegmentState, segmentState } from "./segment-record.js";
export type { Extractor, PageAssignment, TierContext } from "./tier-context.js";
export { tiersJob } from "./tiers-job.js";
export { visitJob } from "./visit-job.js";
