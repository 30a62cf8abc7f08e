import type { Engram } from "@engram/core";
import { CHAT_EXPORT_FORMATS, type ChatExportFormat } from "../chat-exports.js";
import { UsageError } from "../cli-error.js";
import { formatTable, respond } from "../cli-output.js";
import { parseCommandArgs } from "../command-args.js";
import {
  ingestJsonl,
  type PendingWork,
  pendingWork,
  runTierWork,
  type TierWorkOptions,
} from "../ingest-jsonl.js";
import { interruptibleEngram, throwIfInterrupted } from "../interrupt.js";
import { ingestLocomo, type LocomoConversation } from "../locomo/load-locomo.js";
import { withEngram } from "../open-engram.js";
import { progressBar } from "../progress-bar.js";
import { readChatExport, readIngestFile } from "../read-ingest-file.js";
import type { CommandContext } from "./command.js";

interface IngestReport {
  readonly format: "jsonl" | "locomo" | ChatExportFormat;
  readonly memories: number;
  /** Memories this run stored; the rest were stored already (the same file ingested before). */
  readonly added: number;
  readonly users: readonly ({
    readonly userId: string;
    readonly memories: number;
    readonly added: number;
  } & PendingWork)[];
}

/** With --user U, one conversation goes to U and several to `U/<sample_id>`; else each to its sample_id. */
function locomoUser(user: string | undefined, c: LocomoConversation, count: number): string {
  if (user === undefined) return c.sampleId;
  return count === 1 ? user : `${user}/${c.sampleId}`;
}

async function ingestConversations(
  engram: Engram,
  conversations: readonly LocomoConversation[],
  user: string | undefined,
  onProgress: (done: number, total: number) => void,
  tiers: TierWorkOptions,
): Promise<IngestReport> {
  const total = conversations.reduce((n, c) => n + c.turns.length, 0);
  const stored: { userId: string; memories: number; added: number }[] = [];
  let before = 0;
  for (const c of conversations) {
    const userId = locomoUser(user, c, conversations.length);
    const result = await ingestLocomo(engram, c, {
      userId,
      onProgress: (d) => onProgress(before + d, total),
    });
    stored.push(result);
    before += c.turns.length;
  }
  // Tier work now, so what is reported pending is what this run could not do.
  await runTierWork(engram, tiers);
  const users = [];
  for (const u of stored) users.push({ ...u, ...(await pendingWork(engram, u.userId)) });
  const added = users.reduce((n, u) => n + u.added, 0);
  return { format: "locomo", memories: before, added, users };
}

export async function runIngest(args: readonly string[], ctx: CommandContext) {
  const { values, positionals } = parseCommandArgs(
    args,
    { user: { type: "string" }, format: { type: "string" } },
    { names: ["FILE"] },
  );
  const path = positionals[0] as string;
  const format = exportFormat(values.format);
  if (format && values.user === undefined) {
    throw new UsageError(`missing --user U: a ${format} export is one person's history; name whose`);
  }
  const parsed = format ? await readChatExport(path, format) : await readIngestFile(path);
  throwIfInterrupted(ctx.signal);
  if (parsed.format === "jsonl" && values.user === undefined) {
    throw new UsageError("missing --user U: JSONL messages need the user they belong to");
  }
  const bar = progressBar(ctx.io.stderr, "ingest");
  const tierBar = progressBar(ctx.io.stderr, "tiers ");
  // An interrupt stops the next add (the steps stored before it stay, each whole), the embedder within an
  // add, and tier work after its current step.
  const tiers = { signal: ctx.signal, onProgress: tierBar.update };
  // Tier work runs once the turns are stored (runTierWork), not between the steps that store them.
  const options = { mustExist: false, signal: ctx.signal, background: false };
  const report = await withEngram(values, ctx.env, options, async (opened) => {
    const engram = interruptibleEngram(opened, ctx.signal);
    try {
      if (parsed.format === "locomo") {
        const onStored = (done: number, total: number) => {
          bar.update(done, total);
          if (done === total) bar.finish();
        };
        return await ingestConversations(engram, parsed.conversations, values.user, onStored, tiers);
      }
      const onStored = (done: number, total: number) => {
        bar.update(done, total);
        if (done === total) bar.finish();
      };
      const result = await ingestJsonl(engram, values.user as string, parsed.lines, onStored, tiers);
      const { memories, added } = result;
      return { format: parsed.format, memories, added, users: [result] } satisfies IngestReport;
    } finally {
      bar.finish();
      tierBar.finish();
    }
  });
  return respond(values.json, report, () => renderIngest(report, path));
}

/** `12:00:41 UTC` from an ISO time. */
const clockTime = (iso: string) => `${iso.slice(11, 19)} UTC`;

/**
 * What is left of a user's tier work, when anything is: a rerun that adds nothing would otherwise say
 * only "0 added" while a stopped run's jobs wait for their lease to end.
 */
function pendingLine(u: IngestReport["users"][number]): string | null {
  if (u.pending === 0) return null;
  const jobs = `${u.pending} job${u.pending === 1 ? "" : "s"}`;
  if (u.heldUntil) {
    return (
      `tier work pending for ${u.userId}: ${jobs}, held by an earlier run (stopped, or still running) ` +
      `until ${clockTime(u.heldUntil)}; ingest the file again after that to resume it (nothing is stored twice)`
    );
  }
  return `tier work pending for ${u.userId}: ${jobs} waiting for a retry; the next ingest runs them once due`;
}

function renderIngest(report: IngestReport, path: string): string {
  const head = `ingested ${report.memories} memories from ${path} (${report.format})`;
  const already = report.memories - report.added;
  // A repeated run says so: the store kept one copy of each message.
  const tail = already > 0 ? `; ${already} of them were stored already, ${report.added} added` : "";
  const pending = report.users.map(pendingLine).filter((line): line is string => line !== null);
  const lines =
    report.users.length === 1
      ? [`${head} for user ${report.users[0]?.userId}${tail}`]
      : [
          `${head}${tail}`,
          formatTable(
            ["user", "memories", "added"],
            report.users.map((u) => [u.userId, String(u.memories), String(u.added)]),
          ),
        ];
  return [...lines, ...pending].join("\n");
}

/** `--format`: a chat service's data export; absent, the file's own shape decides (JSONL or LoCoMo). */
function exportFormat(value: string | undefined): ChatExportFormat | null {
  if (value === undefined) return null;
  if (!(CHAT_EXPORT_FORMATS as readonly string[]).includes(value)) {
    throw new UsageError(
      `bad --format ${JSON.stringify(value)}: expected ${CHAT_EXPORT_FORMATS.join(" or ")} (a JSONL or LoCoMo file needs no --format)`,
    );
  }
  return value as ChatExportFormat;
}
