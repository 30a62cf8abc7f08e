import { existsSync } from "node:fs";
import { InputError, UsageError } from "../cli-error.js";
import { respond } from "../cli-output.js";
import { parseCommandArgs, requireFlag } from "../command-args.js";
import { formatEvalReport } from "../eval-report.js";
import { connectQdrant, embedderChoice, storeTarget } from "../open-engram.js";
import { type ProgressBar, progressBar } from "../progress-bar.js";
import type { CommandContext } from "./command.js";

// The eval ingests whole conversations; by default it gets its own file rather than filling the main store.
import { DEFAULT_EVAL_DB } from "./eval-store.js";

/** `--k 5,10,20` as a list of cut-offs. */
export function parseKs(value: string | undefined): number[] {
  if (value === undefined) return [5, 10, 20];
  const ks = value.split(",").map((part) => part.trim());
  if (ks.some((k) => !/^\d+$/.test(k) || Number(k) < 1 || Number(k) > 1000)) {
    throw new UsageError(
      `bad --k ${JSON.stringify(value)}: expected whole numbers from 1 to 1000, e.g. 5,10,20`,
    );
  }
  return ks.map(Number);
}

/** One bar per phase (ingest, then query); a new phase clears the last one. */
function phaseProgress(ctx: CommandContext): {
  update: (phase: string, done: number, total: number) => void;
  finish: () => void;
} {
  let current: { phase: string; bar: ProgressBar } | null = null;
  return {
    update(phase, done, total) {
      if (current?.phase !== phase) {
        current?.bar.finish();
        current = { phase, bar: progressBar(ctx.io.stderr, phase.padEnd(6)) };
      }
      current.bar.update(done, total);
    },
    finish: () => current?.bar.finish(),
  };
}

export async function runEval(args: readonly string[], ctx: CommandContext) {
  const { values, positionals } = parseCommandArgs(
    args,
    { data: { type: "string" }, k: { type: "string" } },
    { names: ["BENCHMARK"] },
  );
  if (positionals[0] !== "locomo") {
    throw new UsageError(`unknown benchmark ${JSON.stringify(positionals[0])}; the one available is locomo`);
  }
  const dataPath = requireFlag(values.data, "data", "FILE (a LoCoMo JSON file)");
  if (!existsSync(dataPath)) throw new InputError(`cannot read ${dataPath}: no such file`);
  const ks = parseKs(values.k);
  // The eval store is apart from the main one: ENGRAM_DB does not apply, --db and Qdrant do.
  const target = storeTarget(values, { ...ctx.env, ENGRAM_DB: undefined });
  const storage = target.kind === "qdrant" ? await connectQdrant(target) : undefined;
  const progress = phaseProgress(ctx);
  let doc: Record<string, unknown>;
  try {
    const { evalLocomo } = await import("../locomo/eval-locomo.js");
    doc = await evalLocomo({
      dataPath,
      dbPath: values.db ?? DEFAULT_EVAL_DB,
      ...(storage ? { storage } : {}),
      ks,
      embedder: embedderChoice(values, ctx.env),
      onProgress: progress.update,
    });
  } finally {
    progress.finish();
  }
  return respond(values.json, doc, () => formatEvalReport(doc));
}
