// What every feature runs on: the engine's context, embedding of records, and retrying a conditional write.
export { type EmbedOutcome, embedJob, embedRecords } from "./embed-records.js";
export type { EmbeddingPolicy, EngineContext } from "./engine-context.js";
export { CONFLICT_TRIES, inSteps, untilStored } from "./until-stored.js";
