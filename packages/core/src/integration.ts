// Building blocks for integrations (framework wrappers, the CLI, benchmarks): input schemas and their
// validation, the write-behind queue, a wrapper's turn stamped for write-back, record and message
// helpers. Applications need only the root.

export {
  EMBEDDER_SPEC_FORMS,
  type EmbedderSpec,
  type EmbedderSpecOptions,
  embedderFromSpec,
  parseEmbedderSpec,
} from "./ai/index.js";
export {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  exportDumpSchema,
  messageSchema,
  retrieveInputSchema,
  type StampedTurn,
  searchInputSchema,
  stampTurn,
  timeSchema,
  type WrapperTurn,
} from "./engine/index.js";
export { assembleContext, type ContextInput, defaultTokenizer } from "./generation/index.js";
export {
  BoundedCache,
  CacheSet,
  cubeSchema,
  EMBEDDED_CHARS,
  embeddedPart,
  idString,
  type MessageIdentity,
  messageId,
  newRecord,
  ownLine,
  parseInput,
  randomIds,
  repeatCounts,
  sequentialIds,
  systemClock,
  withinTextLimit,
} from "./model/index.js";
export type { Page } from "./runtime/index.js";
export {
  type JobControl,
  type JobHandler,
  type JobProgress,
  type RunJobsOptions,
  runDueJobs,
  UNCONTROLLED,
  WriteBehind,
  type WriteBehindOptions,
  type WriteFailure,
} from "./scheduler/index.js";
export { matchesMetadata } from "./storage/index.js";
export {
  groupPages,
  type HeatParts,
  heatParts,
  type SegmentHeat,
  type SegmentState,
  segmentHeat,
  segmentState,
} from "./updating/index.js";
