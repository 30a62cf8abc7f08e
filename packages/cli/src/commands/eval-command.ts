import { existsSync } from "node:fs";
import { InputError, UsageError } from "../cli-error.js";
import { respond } from "../cli-output.js";
import { parseCommandArgs, requireFlag } from "../command-args.js";
import { formatEvalReport, formatFactsReport, formatLongMemEvalReport } from "../eval-report.js";
import { connectQdrant, evalEmbedder, storeTarget } from "../open-engram.js";
import { type ProgressBar, progressBar } from "../progress-bar.js";
import type { CommandContext } from "./command.js";

// The eval ingests whole conversations; by default it gets its own file rather than filling the main store.
import { DEFAULT_EVAL_DB, DEFAULT_LONGMEMEVAL_DB } from "./eval-store.js";

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

const BENCHMARKS = ["locomo", "longmemeval", "facts"] as const;

export async function runEval(args: readonly string[], ctx: CommandContext) {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      data: { type: "string" },
      k: { type: "string" },
      limit: { type: "string" },
      types: { type: "string" },
      "fact-keys": { type: "boolean" },
    },
    { names: ["BENCHMARK"] },
  );
  const benchmark = positionals[0];
  if (!(BENCHMARKS as readonly string[]).includes(benchmark as string)) {
    throw new UsageError(
      `unknown benchmark ${JSON.stringify(benchmark)}; the ones available are ${BENCHMARKS.join(", ")}`,
    );
  }
  if (benchmark === "facts") {
    if (values["fact-keys"]) throw new UsageError("--fact-keys goes with eval locomo and eval longmemeval");
    return runFactsEval(values);
  }
  const factKeys = values["fact-keys"] === true ? { factKeys: true } : {};
  if (benchmark === "locomo" && (values.limit !== undefined || values.types !== undefined)) {
    throw new UsageError("--limit and --types go with eval longmemeval");
  }
  if (benchmark === "longmemeval" && values.k !== undefined) {
    throw new UsageError("--k goes with eval locomo (longmemeval reports recall@5 and @10 by session)");
  }
  const what = benchmark === "locomo" ? "a LoCoMo JSON file" : "a LongMemEval .json or .json.gz file";
  const dataPath = requireFlag(values.data, "data", `FILE (${what})`);
  if (!existsSync(dataPath)) throw new InputError(`cannot read ${dataPath}: no such file`);
  // The eval store is apart from the main one: ENGRAM_DB does not apply, --db and Qdrant do.
  const target = storeTarget(values, { ...ctx.env, ENGRAM_DB: undefined });
  const ks = benchmark === "locomo" ? parseKs(values.k) : [];
  const limit = benchmark === "longmemeval" ? parseLimit(values.limit) : undefined;
  const types = benchmark === "longmemeval" ? await parseTypes(values.types) : undefined;
  const storage = target.kind === "qdrant" ? await connectQdrant(target) : undefined;
  const progress = phaseProgress(ctx);
  let doc: Record<string, unknown>;
  try {
    if (benchmark === "locomo") {
      const { evalLocomo } = await import("../locomo/eval-locomo.js");
      doc = await evalLocomo({
        dataPath,
        dbPath: values.db ?? DEFAULT_EVAL_DB,
        ...(storage ? { storage } : {}),
        ks,
        ...factKeys,
        embedder: await evalEmbedder(values, ctx.env),
        onProgress: progress.update,
      });
    } else {
      const { evalLongMemEval } = await import("../longmemeval/eval-longmemeval.js");
      doc = await evalLongMemEval({
        dataPath,
        dbPath: values.db ?? DEFAULT_LONGMEMEVAL_DB,
        ...(storage ? { storage } : {}),
        ...(limit !== undefined ? { limit } : {}),
        ...(types ? { types } : {}),
        ...factKeys,
        embedder: await evalEmbedder(values, ctx.env),
        onProgress: progress.update,
      });
    }
  } finally {
    progress.finish();
  }
  return respond(values.json, doc, () =>
    benchmark === "locomo" ? formatEvalReport(doc) : formatLongMemEvalReport(doc),
  );
}

/** `--limit N`: the first N questions of each type. */
function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 100_000) {
    throw new UsageError(
      `bad --limit ${JSON.stringify(value)}: expected a whole number of questions per type, from 1`,
    );
  }
  return Number(value);
}

/** `--types a,b`: LongMemEval question types. */
async function parseTypes(value: string | undefined) {
  if (value === undefined) return undefined;
  const { LONGMEMEVAL_TYPES } = await import("../longmemeval/load-longmemeval.js");
  const types = value.split(",").map((t) => t.trim());
  const unknown = types.filter((t) => !(LONGMEMEVAL_TYPES as readonly string[]).includes(t));
  if (unknown.length || types.length === 0) {
    throw new UsageError(
      `bad --types ${JSON.stringify(value)}: expected some of ${LONGMEMEVAL_TYPES.join(", ")}`,
    );
  }
  return types as (typeof LONGMEMEVAL_TYPES)[number][];
}

/** `eval facts`: the offline extractor on the labelled persona-facts statements; no store is opened. */
async function runFactsEval(values: {
  data?: string | undefined;
  json?: boolean | undefined;
  k?: string | undefined;
  limit?: string | undefined;
  types?: string | undefined;
}) {
  if (values.k !== undefined || values.limit !== undefined || values.types !== undefined) {
    throw new UsageError("eval facts takes --data FILE (and --json) only");
  }
  const dataPath = requireFlag(
    values.data,
    "data",
    "FILE (a persona-facts JSON file, e.g. bench/data/persona-facts.json)",
  );
  if (!existsSync(dataPath)) throw new InputError(`cannot read ${dataPath}: no such file`);
  const { evalFacts } = await import("../facts/eval-facts.js");
  const doc = await evalFacts({ dataPath });
  return respond(values.json, doc, () => formatFactsReport(doc));
}
