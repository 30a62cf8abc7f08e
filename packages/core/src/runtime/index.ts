// What every feature runs on: the engine's context, embedding of records, retrying a conditional write,
// and the typed definition of a durable job.
export { defineJob, jobHandlers } from "./define-job.js";
export { embedJob } from "./embed-job.js";
export { type EmbedOutcome, embedRecords, unembedded } from "./embed-records.js";
export type { EngineContext, SkillModel } from "./engine-context.js";
export type { Correction, ExtractedFact, Extractor, Page, PageAssignment } from "./extractor.js";
export {
  POLICY_PRESETS,
  type Policy,
  type PolicyOption,
  type PolicyPreset,
  resolvePolicy,
} from "./policy.js";
export { readOne } from "./read-one.js";
export { type SkillsOptions, skillsConfigSchema } from "./skills-config.js";
export { CONFLICT_TRIES, inSteps, tooManyConflicts, untilStored } from "./until-stored.js";
