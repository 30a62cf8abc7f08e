import type { StorageStats } from "@engram/core";
import { formatFields, respond } from "../cli-output.js";
import { parseCommandArgs, READONLY_OPTION } from "../command-args.js";
import { storeTarget, withEngram } from "../open-engram.js";
import type { CommandContext } from "./command.js";

function counts(record: Readonly<Record<string, number | undefined>>): string {
  const parts = Object.entries(record).map(([k, n]) => `${k} ${n ?? 0}`);
  return parts.length > 0 ? parts.join(", ") : "-";
}

function renderStats(stats: StorageStats, path: string, userId: string | undefined): string {
  return formatFields([
    ["store", path],
    ...(userId === undefined
      ? [["users", String(stats.users)] as [string, string]]
      : [["user", userId] as [string, string]]),
    ["memories", String(stats.memories)],
    ["by kind", counts(stats.byKind)],
    ["by tier", counts(stats.byTier)],
    ["vectors", String(stats.vectors)],
    ["history", String(stats.history)],
    ["edges", String(stats.edges)],
    ["key-value", String(stats.kv)],
    ["jobs", counts(stats.jobs)],
  ]);
}

export async function runStats(args: readonly string[], ctx: CommandContext) {
  const { values } = parseCommandArgs(args, { user: { type: "string" }, ...READONLY_OPTION }, { names: [] });
  const userId = values.user;
  const target = storeTarget(values, ctx.env);
  const path = target.kind === "sqlite" ? target.path : target.url;
  // A store that does not exist is "no store", as for every reading command, not a column of zeros.
  const stats = await withEngram(values, ctx.env, { mustExist: true }, (engram) =>
    engram.stats(userId === undefined ? undefined : { userId }),
  );
  const json = userId === undefined ? stats : { ...stats, userId };
  return respond(values.json, json, () => renderStats(stats, path, userId));
}
