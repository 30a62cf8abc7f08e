export type { DistillReport } from "./distill-skills.js";
export { matchSkills, type SkillMatch } from "./match-skills.js";
export { AGENT_TENANT_PREFIX, isAgentTenant } from "./skill-record.js";
export type {
  Skill,
  SkillBody,
  SkillFeedbackInput,
  SkillListInput,
  SkillRef,
  SkillShareInput,
  SkillStep,
  SkillUpdateInput,
  SkillVisibility,
  TraceInput,
  TraceOutcome,
  TraceStep,
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
