import type { StorageStats } from "@engram/core";
import { formatFields, respond } from "../cli-output.js";
import { parseCommandArgs, READONLY_OPTION } from "../command-args.js";
import { type FailingJob, failingJobs } from "../failing-jobs.js";
import { storeTarget, withEngram } from "../open-engram.js";
import type { CommandContext } from "./command.js";

function counts(record: Readonly<Record<string, number | undefined>>): string {
  const parts = Object.entries(record).map(([k, n]) => `${k} ${n ?? 0}`);
  return parts.length > 0 ? parts.join(", ") : "-";
}

function describeFailing(job: FailingJob): string {
  const when =
    job.retryAt === null
      ? `failed for good after ${job.attempts} attempts`
      : `failed ${job.attempts} times, retried at ${job.retryAt}`;
  return `${job.type} ${when}: ${job.lastError}`;
}

function renderStats(
  stats: StorageStats,
  path: string,
  userId: string | undefined,
  failing: readonly FailingJob[],
): string {
  const storeFailed = userId === undefined ? (stats.jobs.failed ?? 0) : 0;
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
    ...(failing.length > 0 ? [["failing", failing.map(describeFailing).join("\n")] as [string, string]] : []),
    ...(storeFailed > 0
      ? [["failing", `${storeFailed} failed for good; engram stats --user U shows why`] as [string, string]]
      : []),
  ]);
}

export async function runStats(args: readonly string[], ctx: CommandContext) {
  const { values } = parseCommandArgs(args, { user: { type: "string" }, ...READONLY_OPTION }, { names: [] });
  const userId = values.user;
  const target = storeTarget(values, ctx.env);
  const path = target.kind === "sqlite" ? target.path : target.url;
  // A store that does not exist is "no store", as for every reading command, not a column of zeros.
  const { stats, failing } = await withEngram(values, ctx.env, { mustExist: true }, async (engram) => {
    if (userId === undefined) return { stats: await engram.stats(), failing: [] };
    return { stats: await engram.stats({ userId }), failing: failingJobs(await engram.jobs({ userId })) };
  });
  // A user's failing jobs, with why: background work that failed is never only stored.
  const json = userId === undefined ? stats : { ...stats, userId, failingJobs: failing };
  return respond(values.json, json, () => renderStats(stats, path, userId, failing));
}
