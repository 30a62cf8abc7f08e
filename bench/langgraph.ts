// Checkpoint latency of EngramCheckpointer next to LangGraph's SqliteSaver, in one run, on files in the
// same directory. Part of `pnpm bench`; alone: `tsx --conditions=@engram/source bench/langgraph.ts [--quick]`.
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
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
  /** Size of the database file and its WAL after the run. */
  readonly fileMb: number;
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

interface Subject {
  readonly name: string;
  readonly saver: BaseCheckpointSaver;
  readonly file: string;
  readonly samples: Record<"put" | "putWrites" | "latest" | "byId", number[]>;
  readonly ids: RunnableConfig[];
  config: RunnableConfig;
}

async function timed(samples: number[], fn: () => Promise<unknown>): Promise<void> {
  const start = performance.now();
  await fn();
  samples.push(ms(start));
}

/** One graph step on every saver in turn, so load from other processes falls on both alike. */
async function writeThread(subjects: Subject[], t: number, steps: number): Promise<void> {
  const doc = "a large state value that does not change between steps. ".repeat(200);
  const messages: string[] = [];
  for (const s of subjects)
    s.config = { configurable: { thread_id: `thread-${t}`, user_id: "bench", checkpoint_ns: "" } };
  for (let i = 0; i < steps; i++) {
    const checkpoint = step(i, messages, doc);
    const newVersions = i === 0 ? checkpoint.channel_versions : { messages: i + 1, counter: i + 1 };
    for (const s of subjects) {
      await timed(s.samples.put, async () => {
        s.config = await s.saver.put(
          s.config,
          checkpoint,
          { source: "loop", step: i, parents: {} },
          newVersions,
        );
      });
      await timed(s.samples.putWrites, () =>
        s.saver.putWrites(s.config, [["messages", `write ${i}`]], `task-${i}`),
      );
      s.ids.push(s.config);
    }
  }
}

async function readBack(subjects: Subject[], o: LangGraphBenchOptions): Promise<void> {
  for (let q = 0; q < o.threads * o.steps; q++) {
    const latest = {
      configurable: { thread_id: `thread-${q % o.threads}`, user_id: "bench", checkpoint_ns: "" },
    };
    for (const s of subjects) {
      await timed(s.samples.latest, () => s.saver.getTuple(latest));
      await timed(s.samples.byId, () => s.saver.getTuple(s.ids[(q * 7919) % s.ids.length] as RunnableConfig));
    }
  }
}

const fileMb = (path: string): number =>
  Number(
    (
      ["", "-wal"].reduce(
        (sum, suffix) => sum + (existsSync(path + suffix) ? statSync(path + suffix).size : 0),
        0,
      ) / 1e6
    ).toFixed(1),
  );

/** Both savers on SQLite files in the same directory, WAL and synchronous FULL for both, interleaved. */
export async function langgraphBench(o: LangGraphBenchOptions): Promise<CheckpointFigures[]> {
  const engramFile = join(o.dir, "engram-checkpoints.db");
  const sqliteFile = join(o.dir, "langgraph-checkpoints.db");
  const engram = await createEngram({ path: engramFile, embedder: null, background: false });
  const sqlite = SqliteSaver.fromConnString(sqliteFile);
  try {
    // SqliteSaver creates its tables on first use; do that outside the timings.
    await sqlite.getTuple({ configurable: { thread_id: "warm-up" } });
    sqlite.db.pragma("journal_mode = WAL");
    sqlite.db.pragma("synchronous = FULL");
    const subject = (name: string, saver: BaseCheckpointSaver, file: string): Subject => ({
      name,
      saver,
      file,
      samples: { put: [], putWrites: [], latest: [], byId: [] },
      ids: [],
      config: {},
    });
    const subjects = [
      subject("EngramCheckpointer", new EngramCheckpointer(engram), engramFile),
      subject("SqliteSaver", sqlite, sqliteFile),
    ];
    for (let t = 0; t < o.threads; t++) await writeThread(subjects, t, o.steps);
    await readBack(subjects, o);
    return subjects.map((s) => ({
      saver: s.name,
      put: summarize(s.samples.put),
      putWrites: summarize(s.samples.putWrites),
      getTupleLatest: summarize(s.samples.latest),
      getTupleById: summarize(s.samples.byId),
      fileMb: fileMb(s.file),
    }));
  } finally {
    await engram.close();
    sqlite.db.close();
  }
}

export function langgraphTable(figures: readonly CheckpointFigures[], o: LangGraphBenchOptions): string {
  const cell = (l: Latency) => `${l.p50.toFixed(3)} / ${l.p95.toFixed(3)}`;
  const rows = figures.map(
    (f) =>
      `| ${f.saver} | ${cell(f.put)} | ${cell(f.putWrites)} | ${cell(f.getTupleLatest)} | ${cell(f.getTupleById)} | ${f.fileMb} |`,
  );
  return [
    `Checkpoint latency, ms p50 / p95 (${o.threads} threads x ${o.steps} steps; 3 channels, 1 unchanged large one)`,
    "",
    "| saver | put | putWrites | getTuple (latest) | getTuple (by id) | file MB |",
    "|---|---|---|---|---|---|",
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
