export { applyFeedback, type FeedbackResult } from "./apply-feedback.js";
export { type HeatParts, heatParts, type SegmentHeat, segmentHeat } from "./heat.js";
export { modelExtractor } from "./model-extractor.js";
export { groupPages } from "./pages.js";
export { type SegmentState, segmentState } from "./segment-record.js";
export { tiersJob } from "./tiers-job.js";
export { visitJob } from "./visit-job.js";
