import type { Engram } from "@engram/core";
import { UsageError } from "../cli-error.js";
import { formatTable, respond } from "../cli-output.js";
import { parseCommandArgs } from "../command-args.js";
import { ingestJsonl } from "../ingest-jsonl.js";
import { interruptibleEngram, throwIfInterrupted } from "../interrupt.js";
import { ingestLocomo, type LocomoConversation } from "../locomo/load-locomo.js";
import { withEngram } from "../open-engram.js";
import { progressBar } from "../progress-bar.js";
import { readIngestFile } from "../read-ingest-file.js";
import type { Command, CommandContext } from "./command.js";

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

async function runIngest(args: readonly string[], ctx: CommandContext) {
  const { values, positionals } = parseCommandArgs(args, { user: { type: "string" } }, { names: ["FILE"] });
  const path = positionals[0] as string;
  const parsed = await readIngestFile(path);
  throwIfInterrupted(ctx.signal);
  if (parsed.format === "jsonl" && values.user === undefined) {
    throw new UsageError("missing --user U: JSONL messages need the user they belong to");
  }
  const bar = progressBar(ctx.io.stderr, "ingest");
  // An interrupt stops the next add or flush (JSONL: the batches written are then removed again), and the
  // embedder within an add.
  const options = { mustExist: false, flush: true, signal: ctx.signal };
  const report = await withEngram(values, ctx.env, options, async (opened) => {
    const engram = interruptibleEngram(opened, ctx.signal);
    try {
      if (parsed.format === "locomo") {
        return await ingestConversations(engram, parsed.conversations, values.user, bar.update);
      }
      const result = await ingestJsonl(engram, values.user as string, parsed.lines, bar.update);
      const { memories, added } = result;
      return { format: "jsonl", memories, added, users: [result] } satisfies IngestReport;
    } finally {
      bar.finish();
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

export const ingestCommand: Command = {
  name: "ingest",
  usage: "--user U FILE",
  summary: "store dialogue turns from a JSONL file or a LoCoMo JSON file",
  details: [
    'JSONL: one {"role": "user"|"assistant"|"system"|"tool", "content": "...", "at"?: ISO time, "name"?, "session"?, "id"?} per line.',
    "The whole file is validated first and stored in one transaction: a bad line or a failure stores nothing.",
    "Each line's identity is its id, else a hash of user, session, role, time and text (docs/message-identity.md):",
    "running the same file again stores nothing twice.",
    "LoCoMo (an array of {sample_id, conversation}): without --user each conversation becomes the user named",
    "by its sample_id; with --user U a single conversation goes to U and several to U/<sample_id>.",
    '--json prints {"format", "memories", "added", "users": [{"userId", "memories", "added", "pending"?}]}.',
    "A message holds at most 1 MiB of UTF-8 text; a longer one is refused before anything is stored.",
    "SIGINT/SIGTERM stop it within about a second: exit 130/143, the interrupted batch not stored (JSONL: nothing).",
  ],
  interruptible: true,
  run: runIngest,
};
