export * from "./engine/index.js";
export * from "./errors/index.js";
export * from "./generation/index.js";
export * from "./model/index.js";
export * from "./models/index.js";
export * from "./retrieval/index.js";
export * from "./scheduler/index.js";
export type {
  DistillReport,
  Skill,
  SkillBody,
  SkillFeedbackInput,
  SkillListInput,
  SkillMatch,
  SkillRef,
  SkillShareInput,
  SkillStep,
  SkillsApi,
  SkillsOptions,
  SkillUpdateInput,
  SkillVisibility,
  Trace,
  TraceAddResult,
  TraceInput,
  TraceListInput,
  TraceOutcome,
  TraceRef,
  TraceStep,
  TracesApi,
} from "./skills/index.js";
export * from "./storage/index.js";
export * from "./updating/index.js";
