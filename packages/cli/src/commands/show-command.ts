import type { MemoryEdge, MemoryRecord, MemoryVersion } from "@engram/core";
import { formatFields, formatTable, respond, truncate } from "../cli-output.js";
import { parseCommandArgs, READONLY_OPTION, requireFlag } from "../command-args.js";
import { requireKnownUser, withEngram } from "../open-engram.js";
import type { CommandContext } from "./command.js";

function renderMemory(
  m: MemoryRecord,
  history: readonly MemoryVersion[],
  edges: readonly MemoryEdge[],
): string {
  const fields: [string, string][] = [
    ["id", m.id],
    ["user", m.userId],
    ["kind", `${m.kind} (tier ${m.tier}, ${m.status})`],
    ["speaker", [m.role, m.name].filter(Boolean).join(", ") || "-"],
    ["session", m.sessionId ?? "-"],
    ["at", m.validFrom ?? "-"],
    ["stored", m.createdAt],
    ["updated", m.updatedAt],
    ["version", String(m.version)],
    ["text", m.text],
  ];
  if (Object.keys(m.metadata).length > 0) fields.push(["metadata", JSON.stringify(m.metadata)]);
  const rows = history.map((h) => [`v${h.version}`, h.event, h.at, truncate(h.text, 80)]);
  const links = edges.map((e) => [e.from === m.id ? "->" : "<-", e.type, e.from === m.id ? e.to : e.from]);
  const graph = links.length ? `\n\nedges\n${formatTable(["dir", "type", "memory"], links)}` : "";
  return `${formatFields(fields)}\n\nhistory\n${formatTable(["version", "event", "at", "text"], rows)}${graph}`;
}

export async function runShow(args: readonly string[], ctx: CommandContext) {
  const { values, positionals } = parseCommandArgs(
    args,
    { user: { type: "string" }, ...READONLY_OPTION },
    { names: ["ID"] },
  );
  const userId = requireFlag(values.user, "user", "U (whose memory it is)");
  const id = positionals[0] as string;
  const { memory, history, edges } = await withEngram(
    values,
    ctx.env,
    { mustExist: true },
    async (engram) => {
      await requireKnownUser(engram, userId);
      return {
        memory: await engram.memories.get({ userId, id }),
        history: await engram.memories.history({ userId, id }),
        edges: await engram.memories.edges({ userId, id }),
      };
    },
  );
  return respond(values.json, { memory, history, edges }, () => renderMemory(memory, history, edges));
}
