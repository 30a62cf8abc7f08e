// Checkpoint latency of EngramCheckpointer next to LangGraph's SqliteSaver, in one run, on files in the
// same directory. Part of `pnpm bench`; alone: `tsx --conditions=@engram/source bench/langgraph.ts [--quick]`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createEngram } from "@engram/core";
import { EngramCheckpointer } from "@engram/langgraph";
import type { RunnableConfig } from "@langchain/core/runnables";
import { type BaseCheckpointSaver, emptyCheckpoint, uuid6 } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { type Latency, summarize } from "./stats.js";

export interface CheckpointFigures {
  readonly saver: string;
  readonly put: Latency;
  readonly putWrites: Latency;
  /** The latest checkpoint of a thread (no checkpoint_id), with its values and pending writes. */
  readonly getTupleLatest: Latency;
  /** A checkpoint by id, anywhere in the thread's history. */
  readonly getTupleById: Latency;
}

export interface LangGraphBenchOptions {
  readonly dir: string;
  /** Threads written, and checkpoints per thread (one graph step each). */
  readonly threads: number;
  readonly steps: number;
}

const ms = (start: number) => performance.now() - start;

/** One graph step: a growing message list (changes every step), a counter, and a large unchanged document. */
function step(i: number, messages: string[], doc: string) {
  messages.push(`turn ${i}: ${"lorem ipsum dolor sit amet ".repeat(8)}`);
  return {
    ...emptyCheckpoint(),
    id: uuid6(-1),
    channel_values: { messages: [...messages], counter: i, doc },
    channel_versions: { messages: i + 1, counter: i + 1, doc: 1 },
  };
}

async function measure(
  name: string,
  saver: BaseCheckpointSaver,
  o: LangGraphBenchOptions,
): Promise<CheckpointFigures> {
  const put: number[] = [];
  const putWrites: number[] = [];
  const latest: number[] = [];
  const byId: number[] = [];
  const ids: RunnableConfig[] = [];
  const doc = "a large state value that does not change between steps. ".repeat(200);
  for (let t = 0; t < o.threads; t++) {
    let config: RunnableConfig = {
      configurable: { thread_id: `thread-${t}`, user_id: "bench", checkpoint_ns: "" },
    };
    const messages: string[] = [];
    for (let i = 0; i < o.steps; i++) {
      const checkpoint = step(i, messages, doc);
      const newVersions = i === 0 ? checkpoint.channel_versions : { messages: i + 1, counter: i + 1 };
      let start = performance.now();
      config = await saver.put(config, checkpoint, { source: "loop", step: i, parents: {} }, newVersions);
      put.push(ms(start));
      start = performance.now();
      await saver.putWrites(config, [["messages", `write ${i}`]], `task-${i}`);
      putWrites.push(ms(start));
      ids.push(config);
    }
  }
  for (let q = 0; q < o.threads * o.steps; q++) {
    const thread = `thread-${q % o.threads}`;
    let start = performance.now();
    await saver.getTuple({ configurable: { thread_id: thread, user_id: "bench", checkpoint_ns: "" } });
    latest.push(ms(start));
    start = performance.now();
    await saver.getTuple(ids[(q * 7919) % ids.length] as RunnableConfig);
    byId.push(ms(start));
  }
  return {
    saver: name,
    put: summarize(put),
    putWrites: summarize(putWrites),
    getTupleLatest: summarize(latest),
    getTupleById: summarize(byId),
  };
}

/** Both savers, one after the other, each on its own SQLite file (WAL, synchronous FULL for both). */
export async function langgraphBench(o: LangGraphBenchOptions): Promise<CheckpointFigures[]> {
  const engram = await createEngram({
    path: join(o.dir, "engram-checkpoints.db"),
    embedder: null,
    background: false,
  });
  const sqlite = SqliteSaver.fromConnString(join(o.dir, "langgraph-checkpoints.db"));
  try {
    // SqliteSaver creates its tables lazily, on first use; do that outside the timings.
    await sqlite.getTuple({ configurable: { thread_id: "warm-up" } });
    sqlite.db.pragma("journal_mode = WAL");
    sqlite.db.pragma("synchronous = FULL");
    return [
      await measure("EngramCheckpointer", new EngramCheckpointer(engram), o),
      await measure("SqliteSaver", sqlite, o),
    ];
  } finally {
    await engram.close();
    sqlite.db.close();
  }
}

export function langgraphTable(figures: readonly CheckpointFigures[], o: LangGraphBenchOptions): string {
  const cell = (l: Latency) => `${l.p50.toFixed(3)} / ${l.p95.toFixed(3)}`;
  const rows = figures.map(
    (f) =>
      `| ${f.saver} | ${cell(f.put)} | ${cell(f.putWrites)} | ${cell(f.getTupleLatest)} | ${cell(f.getTupleById)} |`,
  );
  return [
    `Checkpoint latency, ms p50 / p95 (${o.threads} threads x ${o.steps} steps; 3 channels, 1 unchanged large one)`,
    "",
    "| saver | put | putWrites | getTuple (latest) | getTuple (by id) |",
    "|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

export const langgraphSizes = (quick: boolean) =>
  quick ? { threads: 4, steps: 50 } : { threads: 10, steps: 200 };

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const options = langgraphSizes(process.argv.includes("--quick"));
  const dir = mkdtempSync(join(tmpdir(), "engram-bench-langgraph-"));
  try {
    const o = { dir, ...options };
    console.log(langgraphTable(await langgraphBench(o), o));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
