import type { Engram } from "@engram/core";
import { UsageError } from "../cli-error.js";
import { formatTable, respond } from "../cli-output.js";
import { parseCommandArgs } from "../command-args.js";
import { ingestJsonl, runTierWork } from "../ingest-jsonl.js";
import { interruptibleEngram, throwIfInterrupted } from "../interrupt.js";
import { ingestLocomo, type LocomoConversation } from "../locomo/load-locomo.js";
import { withEngram } from "../open-engram.js";
import { progressBar } from "../progress-bar.js";
import { readIngestFile } from "../read-ingest-file.js";
import type { CommandContext } from "./command.js";

interface IngestReport {
  readonly format: "jsonl" | "locomo";
  readonly memories: number;
  /** Memories this run stored; the rest were stored already (the same file ingested before). */
  readonly added: number;
  readonly users: readonly { readonly userId: string; readonly memories: number; readonly added: number }[];
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
): Promise<IngestReport> {
  const total = conversations.reduce((n, c) => n + c.turns.length, 0);
  const users: { userId: string; memories: number; added: number }[] = [];
  let before = 0;
  for (const c of conversations) {
    const userId = locomoUser(user, c, conversations.length);
    const result = await ingestLocomo(engram, c, {
      userId,
      onProgress: (d) => onProgress(before + d, total),
    });
    users.push(result);
    before += c.turns.length;
  }
  const added = users.reduce((n, u) => n + u.added, 0);
  return { format: "locomo", memories: before, added, users };
}

export async function runIngest(args: readonly string[], ctx: CommandContext) {
  const { values, positionals } = parseCommandArgs(args, { user: { type: "string" } }, { names: ["FILE"] });
  const path = positionals[0] as string;
  const parsed = await readIngestFile(path);
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
        const report = await ingestConversations(engram, parsed.conversations, values.user, bar.update);
        bar.finish();
        await runTierWork(opened, tiers);
        return report;
      }
      const onStored = (done: number, total: number) => {
        bar.update(done, total);
        if (done === total) bar.finish();
      };
      const result = await ingestJsonl(engram, values.user as string, parsed.lines, onStored, tiers);
      const { memories, added } = result;
      return { format: "jsonl", memories, added, users: [result] } satisfies IngestReport;
    } finally {
      bar.finish();
      tierBar.finish();
    }
  });
  return respond(values.json, report, () => renderIngest(report, path));
}

function renderIngest(report: IngestReport, path: string): string {
  const head = `ingested ${report.memories} memories from ${path} (${report.format})`;
  const already = report.memories - report.added;
  // A repeated run says so: the store kept one copy of each message.
  const tail = already > 0 ? `; ${already} of them were stored already, ${report.added} added` : "";
  if (report.users.length === 1) return `${head} for user ${report.users[0]?.userId}${tail}`;
  return `${head}${tail}\n${formatTable(
    ["user", "memories", "added"],
    report.users.map((u) => [u.userId, String(u.memories), String(u.added)]),
  )}`;
}
