export type { DistillReport } from "./distill-skills.js";
export { distillSkills } from "./distill-skills.js";
export { matchSkills, type SkillMatch } from "./match-skills.js";
export { AGENT_TENANT_PREFIX, isAgentTenant } from "./skill-record.js";
export {
  type Skill,
  type SkillBody,
  type SkillFeedbackInput,
  type SkillListInput,
  type SkillRef,
  type SkillShareInput,
  type SkillStep,
  type SkillUpdateInput,
  type SkillVisibility,
  TRACE_OUTCOMES,
  type TraceInput,
  type TraceOutcome,
  type TraceStep,
} from "./skill-schemas.js";
export { type SkillsApi, skillsApi } from "./skills-api.js";
export { skillsJob } from "./skills-job.js";
export type { Trace } from "./trace-record.js";
export {
  type TraceAddResult,
  type TraceListInput,
  type TraceRef,
  type TracesApi,
  tracesApi,
} from "./traces-api.js";
