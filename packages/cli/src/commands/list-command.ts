import { MEMORY_KINDS, type MemoryRecord, resolvePolicy, TIERS } from "@engram/core";
import { segmentHeat, segmentState } from "@engram/core/integration";
import { formatTable, respond, shortTime, truncate } from "../cli-output.js";
import { choiceFlag, integerFlag, parseCommandArgs, READONLY_OPTION, requireFlag } from "../command-args.js";
import { requireKnownUser, withEngram } from "../open-engram.js";
import type { CommandContext } from "./command.js";

/** A memory as one table row: the speaker's name goes before the text when there is one. */
export function memoryLine(m: MemoryRecord, width = 90): string {
  return truncate(m.name ? `${m.name}: ${m.text}` : m.text, width);
}

/** What the tiers say about a memory: a segment's heat and size, a fact's validity. */
export function tierState(m: MemoryRecord, now = new Date()): string {
  if (m.kind === "segment") {
    const state = segmentState(m);
    const heat = segmentHeat(state, now, resolvePolicy());
    return `heat ${heat.toFixed(2)}, ${state.size} pages, promoted ${Number(m.metadata.promotions ?? 0)}x`;
  }
  if (m.kind === "fact") {
    if (m.expiredAt === null) return "current";
    return `superseded ${shortTime(m.expiredAt)}${m.validTo ? ` (valid to ${shortTime(m.validTo)})` : ""}`;
  }
  return m.metadata.segment ? `in ${String(m.metadata.segment)}` : "";
}

function renderList(memories: readonly MemoryRecord[], userId: string): string {
  if (memories.length === 0) return `no memories of user ${userId} match`;
  return formatTable(
    ["id", "kind", "tier", "at", "v", "state", "text"],
    memories.map((m) => [
      m.id,
      m.kind,
      m.tier,
      shortTime(m.validFrom),
      String(m.version),
      tierState(m),
      memoryLine(m, 70),
    ]),
  );
}

export async function runList(args: readonly string[], ctx: CommandContext) {
  const { values } = parseCommandArgs(
    args,
    {
      user: { type: "string" },
      kind: { type: "string" },
      tier: { type: "string" },
      limit: { type: "string" },
      ...READONLY_OPTION,
    },
    { names: [] },
  );
  const userId = requireFlag(values.user, "user", "U (whose memories to list)");
  const kind = choiceFlag(values.kind, "kind", MEMORY_KINDS);
  const tier = choiceFlag(values.tier, "tier", TIERS);
  const limit = integerFlag(values.limit, "limit", { min: 1, max: 100_000 }) ?? 100;
  const memories = await withEngram(
    values,
    ctx.env,
    { mustExist: true, warnFailing: { userId, stderr: ctx.io.stderr } },
    async (engram) => {
      await requireKnownUser(engram, userId);
      return engram.memories.list({
        userId,
        limit,
        ...(kind ? { kinds: [kind] } : {}),
        ...(tier ? { tiers: [tier] } : {}),
      });
    },
  );
  return respond(values.json, { userId, memories }, () => renderList(memories, userId));
}
