import type { Engram, MemoryVersion, Skill, Trace } from "@engram/core";
import { UsageError } from "../cli-error.js";
import { formatFields, formatTable, respond, shortTime, truncate } from "../cli-output.js";
import { integerFlag, parseCommandArgs } from "../command-args.js";
import { withEngram } from "../open-engram.js";
import type { CommandContext } from "./command.js";

const ACTIONS = ["list", "show", "history", "feedback", "delete", "traces"] as const;
type Action = (typeof ACTIONS)[number];

/** Whose skills: a user's own (`--user`) or an agent's shared ones (`--agent`). */
type Owner = { userId: string } | { agentId: string };

function ownerOf(values: { user?: string | undefined; agent?: string | undefined }): Owner {
  if ((values.user === undefined) === (values.agent === undefined)) {
    throw new UsageError(
      "pass either --user U (the user's skills) or --agent A (skills shared with an agent's users)",
    );
  }
  return values.user !== undefined ? { userId: values.user } : { agentId: values.agent as string };
}

function stepsText(skill: Skill): string {
  return skill.steps
    .map(
      (s, i) =>
        `${i + 1}. ${s.tool}(${Object.entries(s.args)
          .map(([k, v]) => `${k}=${v}`)
          .join(", ")})`,
    )
    .join(" ");
}

function renderList(skills: readonly Skill[]): string {
  if (skills.length === 0)
    return "no skills yet (they appear once a kind of task has been traced a few times)";
  return formatTable(
    ["id", "name", "version", "confidence", "runs", "steps"],
    skills.map((s) => [
      s.id,
      truncate(s.name, 30),
      `v${s.version}`,
      s.confidence.toFixed(2),
      `${s.successes} ok, ${s.failures} failed`,
      truncate(stepsText(s), 60),
    ]),
  );
}

function renderSkill(skill: Skill): string {
  return formatFields([
    ["id", skill.id],
    ["name", skill.name],
    ["use for", skill.trigger],
    ["steps", stepsText(skill)],
    ["pitfalls", skill.pitfalls.join("; ") || "-"],
    ["version", `v${skill.version} (${skill.source}, ${skill.visibility === "agent" ? "shared" : "own"})`],
    ["confidence", `${skill.confidence.toFixed(2)} (${skill.successes} ok, ${skill.failures} failed)`],
    ["evidence", skill.evidence.join(" ") || "-"],
    ["updated", skill.updatedAt],
  ]);
}

function renderHistory(history: readonly MemoryVersion[]): string {
  return formatTable(
    ["version", "event", "at", "skill"],
    history.map((h) => [`v${h.version}`, h.event, shortTime(h.at), truncate(h.text, 80)]),
  );
}

function renderTraces(traces: readonly Trace[]): string {
  if (traces.length === 0) return "no traces";
  return formatTable(
    ["id", "at", "outcome", "task", "tools"],
    traces.map((t) => [
      t.id,
      shortTime(t.at),
      t.outcome,
      truncate(t.task, 50),
      t.steps.map((s) => s.tool).join(" "),
    ]),
  );
}

interface ActionResult {
  skills?: Skill[];
  skill?: Skill;
  history?: MemoryVersion[];
  traces?: Trace[];
  deleted?: string;
}

/** Runs one action; `id` and `text` are the positionals after it. */
async function act(
  engram: Engram,
  action: Action,
  owner: Owner,
  id: string | undefined,
  text: string | undefined,
  limit: number,
): Promise<ActionResult> {
  const need = (value: string | undefined, what: string) => {
    if (value === undefined) throw new UsageError(`missing ${what} for "skills ${action}"`);
    return value;
  };
  switch (action) {
    case "list":
      return { skills: await engram.skills.list({ ...owner, limit }) };
    case "show":
      return { skill: await engram.skills.get({ ...owner, id: need(id, "ID") }) };
    case "history":
      return { history: await engram.skills.history({ ...owner, id: need(id, "ID") }) };
    case "feedback":
      return {
        skill: await engram.skills.feedback({ ...owner, id: need(id, "ID"), text: need(text, '"TEXT"') }),
      };
    case "delete":
      await engram.skills.delete({ ...owner, id: need(id, "ID") });
      return { deleted: id as string };
    case "traces":
      if (!("userId" in owner)) throw new UsageError("skills traces: pass --user U (traces belong to users)");
      return { traces: await engram.traces.list({ userId: owner.userId, limit }) };
  }
}

export async function runSkills(args: readonly string[], ctx: CommandContext) {
  const { values, positionals } = parseCommandArgs(
    args,
    { user: { type: "string" }, agent: { type: "string" }, limit: { type: "string" } },
    { names: ["ACTION", "ID", "TEXT"], min: 0 },
  );
  const action = (positionals[0] ?? "list") as Action;
  if (!ACTIONS.includes(action)) {
    throw new UsageError(`unknown action ${JSON.stringify(action)}: expected one of ${ACTIONS.join(", ")}`);
  }
  const owner = ownerOf(values);
  const limit = integerFlag(values.limit, "limit", { min: 1, max: 10_000 }) ?? 100;
  // Feedback and delete name a skill, which a store that does not exist cannot hold: no store is made.
  const result = await withEngram(values, ctx.env, { mustExist: true }, (engram) =>
    act(engram, action, owner, positionals[1], positionals[2], limit),
  );
  return respond(values.json, { ...owner, ...result }, () => {
    if (result.skills) return renderList(result.skills);
    if (result.skill) return renderSkill(result.skill);
    if (result.history) return renderHistory(result.history);
    if (result.traces) return renderTraces(result.traces);
    return `deleted skill ${result.deleted}`;
  });
}
