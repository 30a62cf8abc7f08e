import type { ReembedResult } from "@engram/core";
import { UsageError } from "../cli-error.js";
import { respond } from "../cli-output.js";
import { parseCommandArgs } from "../command-args.js";
import { withEngram } from "../open-engram.js";
import { progressBar } from "../progress-bar.js";
import type { CommandContext } from "./command.js";

/** `engram reembed --embedder SPEC`: moves the store's vectors to the embedder the flags name. */
export async function runReembed(args: readonly string[], ctx: CommandContext) {
  const { values } = parseCommandArgs(args, { "batch-size": { type: "string" } }, { names: [] });
  const batchSize = parseBatchSize(values["batch-size"]);
  if (values["no-embed"])
    throw new UsageError("reembed needs an embedder to move the store to, not --no-embed");
  const bar = progressBar(ctx.io.stderr, "reembed");
  let result: ReembedResult;
  try {
    result = await withEngram(values, ctx.env, { mustExist: true, background: false }, (engram) =>
      engram.reembed({
        ...(batchSize === undefined ? {} : { batchSize }),
        onProgress: (p) => bar.update(p.memories, p.total),
      }),
    );
  } finally {
    bar.finish();
  }
  return respond(values.json, result, () => describeResult(result));
}

function describeResult(r: ReembedResult): string {
  if (r.memories === 0 && r.users === 0 && !r.resumed) {
    return `the store's vectors are already ${r.to}'s: nothing to re-embed`;
  }
  const from = r.from ?? "an unrecorded embedder";
  return (
    `re-embedded ${r.memories} memories of ${r.users} users: ${from} -> ${r.to}` +
    (r.resumed ? " (finished a move that had been interrupted)" : "")
  );
}

function parseBatchSize(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 4096) {
    throw new UsageError(`bad --batch-size ${JSON.stringify(value)}: expected a whole number from 1 to 4096`);
  }
  return Number(value);
}
