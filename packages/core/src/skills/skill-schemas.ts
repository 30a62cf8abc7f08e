import { z } from "zod";
import { idString, timeSchema } from "../model/index.js";

const userId = idString;

export const TRACE_OUTCOMES = ["success", "failure", "unknown"] as const;
export type TraceOutcome = (typeof TRACE_OUTCOMES)[number];

const toolName = z.string().trim().min(1, "tool must not be empty").max(128);

/** One tool call of a trace: its arguments and its result or error. */
export const traceStepSchema = z.object({
  tool: toolName,
  args: z.record(z.string(), z.unknown()).default({}),
  result: z.unknown().optional(),
  error: z.string().max(4000).optional(),
});
export type TraceStep = z.output<typeof traceStepSchema>;

export const traceInputSchema = z.object({
  userId,
  agentId: idString.optional(),
  sessionId: idString.optional(),
  /** What the agent was asked to do (the request). */
  task: z.string({ error: "expected task to be a string" }).trim().min(1, "task must not be empty").max(8000),
  steps: z.array(traceStepSchema).max(200, "a trace holds at most 200 tool calls"),
  /** The agent's final answer. */
  answer: z.string().max(16_000).optional(),
  /** Default: `failure` when the last call of any tool failed, else `success`. */
  outcome: z.enum(TRACE_OUTCOMES).optional(),
  at: timeSchema.optional(),
});
export type TraceInput = z.input<typeof traceInputSchema>;

/** A step of a skill: a tool and the pattern of its arguments (`{name}` marks a value that varies). */
export const skillStepSchema = z.object({
  tool: toolName,
  args: z.record(z.string(), z.string().max(500)).default({}),
  note: z.string().max(500).nullable().default(null),
});
export type SkillStep = z.output<typeof skillStepSchema>;

/** What a skill says: name, when to use it, the steps and what went wrong before. */
export const skillBodySchema = z.object({
  name: z.string().trim().min(1).max(120),
  trigger: z.string().trim().min(1).max(1000),
  steps: z.array(skillStepSchema).min(1).max(50),
  pitfalls: z.array(z.string().trim().min(1).max(500)).max(20).default([]),
});
export type SkillBody = z.output<typeof skillBodySchema>;

/** Who may read a skill: the user it was learned from, or every user of an agent (placeholders only). */
export type SkillVisibility = "user" | "agent";

/** A skill as the API returns it. */
export interface Skill extends SkillBody {
  readonly id: string;
  readonly userId: string;
  readonly agentId: string | null;
  readonly visibility: SkillVisibility;
  /** Ids of the traces it was distilled from (empty for an agent-level copy). */
  readonly evidence: string[];
  readonly successes: number;
  readonly failures: number;
  /** 0..1: share of successful runs, damped while there are few. */
  readonly confidence: number;
  readonly version: number;
  /** `offline`, `model`, or `user` once edited by hand or by feedback. */
  readonly source: "offline" | "model" | "user";
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const skillRefSchema = z.object({
  userId: userId.optional(),
  agentId: idString.optional(),
  id: idString,
});
export type SkillRef = z.input<typeof skillRefSchema>;

export const skillListSchema = z.object({
  userId: userId.optional(),
  agentId: idString.optional(),
  limit: z.number().int().min(1).max(10_000).default(100),
});
export type SkillListInput = z.input<typeof skillListSchema>;

export const skillUpdateSchema = skillRefSchema.extend({
  name: skillBodySchema.shape.name.optional(),
  trigger: skillBodySchema.shape.trigger.optional(),
  steps: z.array(skillStepSchema).min(1).max(50).optional(),
  pitfalls: z.array(z.string().trim().min(1).max(500)).max(20).optional(),
});
export type SkillUpdateInput = z.input<typeof skillUpdateSchema>;

export const skillFeedbackSchema = skillRefSchema.extend({
  text: z.string().trim().min(1, "text must not be empty").max(4000),
});
export type SkillFeedbackInput = z.input<typeof skillFeedbackSchema>;

export const skillShareSchema = z.object({ userId, id: idString, agentId: idString });
export type SkillShareInput = z.input<typeof skillShareSchema>;
