import type { Engram, Skill } from "@engram/core";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { guarded, toolResult, userOf } from "./tool-result.js";
import { idString, userField } from "./tool-schemas.js";
import type { UserScope } from "./user-scope.js";

const text = (what: string, max: number) =>
  z
    .string({ error: `expected ${what} as a string` })
    .trim()
    .min(1, `${what} must not be empty`)
    .max(max, `${what} must be at most ${max} characters`);

const agentField = {
  agent_id: idString("agent_id")
    .optional()
    .describe("The agent (assistant) id; with it, skills the agent shares with all its users are included."),
};

export const recordTraceShape = {
  ...userField,
  ...agentField,
  task: text("task", 8000).describe("What you were asked to do, in the user's words."),
  steps: z
    .array(
      z.object({
        tool: text("tool", 128).describe("The tool's name."),
        args: z.record(z.string(), z.unknown()).optional().describe("The arguments you passed."),
        result: z.unknown().optional().describe("What the tool returned."),
        error: z.string().max(4000).optional().describe("The error, when the call failed."),
      }),
      { error: "expected steps as an array of tool calls" },
    )
    .max(200, "at most 200 steps")
    .describe("Every tool call you made for the task, in order."),
  answer: z.string().max(16_000).optional().describe("Your final answer."),
  outcome: z
    .enum(["success", "failure", "unknown"], { error: "expected outcome to be success, failure or unknown" })
    .optional()
    .describe("Whether the task succeeded. Default: failure when a tool's last call failed, else success."),
};

export const listSkillsShape = { ...userField, ...agentField };

export const getSkillShape = {
  ...userField,
  ...agentField,
  skill_id: idString("skill_id").describe("The skill's id, as list_skills returns it."),
};

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;

function skillView(skill: Skill) {
  return {
    id: skill.id,
    name: skill.name,
    trigger: skill.trigger,
    steps: skill.steps,
    pitfalls: skill.pitfalls,
    shared: skill.visibility === "agent",
    version: skill.version,
    confidence: skill.confidence,
    successes: skill.successes,
    failures: skill.failures,
  };
}

/** Procedural memory: record_trace, list_skills, get_skill. */
export function registerSkillTools(server: McpServer, engram: Engram, scope: UserScope): void {
  server.registerTool(
    "record_trace",
    {
      title: "Record what you did",
      description:
        "Call after finishing a task that used tools: the task, each tool call with its arguments and " +
        "result or error, and your answer. Recurring tasks become skills (the steps that worked and the " +
        "pitfalls) that retrieve_memory shows you the next time a similar task comes.",
      inputSchema: recordTraceShape,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args) =>
      guarded(async () => {
        const userId = userOf(args, scope);
        const { trace } = await engram.traces.add({
          userId,
          ...(args.agent_id ? { agentId: args.agent_id } : {}),
          task: args.task,
          steps: args.steps.map((s) => ({
            tool: s.tool,
            args: s.args ?? {},
            result: s.result,
            error: s.error,
          })),
          ...(args.answer ? { answer: args.answer } : {}),
          ...(args.outcome ? { outcome: args.outcome } : {}),
        });
        return toolResult(
          { user_id: userId, trace_id: trace.id, outcome: trace.outcome, steps: trace.steps.length },
          `Recorded trace ${trace.id} (${trace.outcome}, ${trace.steps.length} tool calls).`,
        );
      }),
  );

  server.registerTool(
    "list_skills",
    {
      title: "List skills",
      description:
        "The skills learned from your earlier tasks for this user (and, with agent_id, those the agent " +
        "shares with all its users): name, when to use each, steps and pitfalls.",
      inputSchema: listSkillsShape,
      annotations: READ_ONLY,
    },
    (args) =>
      guarded(async () => {
        const userId = userOf(args, scope);
        const own = await engram.skills.list({ userId });
        const shared = args.agent_id ? await engram.skills.list({ agentId: args.agent_id }) : [];
        return toolResult({ user_id: userId, skills: [...own, ...shared].map(skillView) });
      }),
  );

  server.registerTool(
    "get_skill",
    {
      title: "Read a skill",
      description:
        "One skill by id: its steps with argument patterns ({name} marks a value to fill in), pitfalls, " +
        "version and confidence. Pass agent_id to read a skill the agent shares.",
      inputSchema: getSkillShape,
      annotations: READ_ONLY,
    },
    (args) =>
      guarded(async () => {
        const userId = userOf(args, scope);
        const skill = await engram.skills.get(
          args.agent_id ? { agentId: args.agent_id, id: args.skill_id } : { userId, id: args.skill_id },
        );
        return toolResult({ user_id: userId, skill: skillView(skill) });
      }),
  );
}
