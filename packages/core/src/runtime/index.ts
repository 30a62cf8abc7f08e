// What every feature runs on: the engine's context, embedding of records, retrying a conditional write,
// and the typed definition of a durable job.
export { defineJob, type JobKind, jobHandlers } from "./define-job.js";
export { embedJob } from "./embed-job.js";
export { type EmbedOutcome, embedRecords } from "./embed-records.js";
export type { EmbeddingPolicy, EngineContext, SkillModel } from "./engine-context.js";
export type {
  Correction,
  ExtractedFact,
  Extractor,
  FactSubject,
  Page,
  PageAssignment,
} from "./extractor.js";
export {
  POLICY_PRESETS,
  type Policy,
  type PolicyOption,
  type PolicyPreset,
  policySchema,
  resolvePolicy,
} from "./policy.js";
export { type SkillsConfig, type SkillsOptions, skillsConfigSchema } from "./skills-config.js";
export { CONFLICT_TRIES, inSteps, untilStored } from "./until-stored.js";
