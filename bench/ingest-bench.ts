import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createEngram, type Engram } from "@engram/core";
import { SqliteStorage } from "@engram/core/sqlite";
import type { PoolTurn } from "./bench-data.js";
import { cpuMsSince, type Latency, summarize } from "./stats.js";

export interface IngestFigures {
  readonly durability: "full" | "normal";
  readonly messagesPerCall: number;
  readonly turns: number;
  readonly seconds: number;
  readonly turnsPerSec: number;
  /** Turns per second of this process's CPU time (robust to other processes sharing the cores). */
  readonly turnsPerCpuSec: number;
  /** Wall time of one `add` call. */
  readonly perCall: Latency;
}

export interface IngestOptions {
  readonly dir: string;
  readonly turns: readonly PoolTurn[];
  /** Turns to add with one message per call, and with 100 per call. */
  readonly single: number;
  readonly batched: number;
  /** A time cap per configuration, so slow fsyncs cannot stall the run. */
  readonly maxSeconds: number;
}

/** Turns of one session; a new session every 20 turns, as a chat would. */
const SESSION_LENGTH = 20;
/**
 * Turns per user before the next user starts: a long conversation history each (LoCoMo's are 370-690).
 * How `add` scales with one user's history is measured separately (search figures, addInScope).
 */
const USER_LENGTH = 2000;

/**
 * The raw path: no embedder, so the figure is validation + SQLite write with full-text index and history.
 * Tier processing is queued by each add and runs later; it is kept out of the add figures (no background
 * worker) and measured on its own (`tierProcessing`).
 */
async function open(path: string, durability: "full" | "normal"): Promise<Engram> {
  if (durability === "full") return createEngram({ path, embedder: null, background: false });
  return createEngram({
    storage: new SqliteStorage({ path, durability }),
    embedder: null,
    background: false,
  });
}

async function ingestOne(options: IngestOptions, durability: "full" | "normal", perCall: number) {
  const engram = await open(join(options.dir, `ingest-${durability}-${perCall}.db`), durability);
  const samples: number[] = [];
  const cpu = process.cpuUsage();
  const start = performance.now();
  const maxTurns = perCall === 1 ? options.single : options.batched;
  let done = 0;
  while (done < maxTurns && performance.now() - start < options.maxSeconds * 1000) {
    const messages = Array.from({ length: perCall }, (_, i) => {
      const turn = options.turns[(done + i) % options.turns.length] as PoolTurn;
      return {
        role: (done + i) % 2 ? ("assistant" as const) : ("user" as const),
        name: turn.speaker,
        content: turn.text,
      };
    });
    const t = performance.now();
    await engram.add({
      userId: `user-${Math.floor(done / USER_LENGTH)}`,
      sessionId: `s${Math.floor(done / SESSION_LENGTH)}`,
      messages,
    });
    samples.push(performance.now() - t);
    done += perCall;
  }
  const seconds = (performance.now() - start) / 1000;
  const cpuSeconds = cpuMsSince(cpu) / 1000;
  await engram.close();
  return {
    durability,
    messagesPerCall: perCall,
    turns: done,
    seconds: Number(seconds.toFixed(2)),
    turnsPerSec: Math.round(done / seconds),
    turnsPerCpuSec: Math.round(done / cpuSeconds),
    perCall: summarize(samples),
  } satisfies IngestFigures;
}

export interface TierFigures {
  readonly turns: number;
  readonly addSeconds: number;
  /** `flush()` after the adds: the queued tier work (segments, summaries, promotion; offline extractor). */
  readonly flushSeconds: number;
  readonly turnsPerSec: number;
  /**
   * The longest the event loop went without a turn during the flush: how long a request arriving then
   * (a search, an MCP call) could wait behind the tier work. Optional: absent in runs before 2026-12-07.
   */
  readonly longestStallMs?: number;
}

/** The deferred tier work for one user's conversation, timed apart from the adds that queue it. */
export async function tierBench(options: { dir: string; turns: readonly PoolTurn[]; count: number }) {
  const engram = await open(join(options.dir, "tiers.db"), "full");
  const start = performance.now();
  for (let done = 0; done < options.count; done += 100) {
    const turns = Array.from(
      { length: 100 },
      (_, i) => options.turns[(done + i) % options.turns.length] as PoolTurn,
    );
    await engram.add({
      userId: "tiers",
      sessionId: `s${done / 100}`,
      messages: turns.map((t, i) => ({
        role: i % 2 ? ("assistant" as const) : ("user" as const),
        name: t.speaker,
        content: t.text,
      })),
    });
  }
  const stalls = monitorEventLoopDelay({ resolution: 5 });
  const flushStart = performance.now();
  stalls.enable();
  await engram.flush();
  stalls.disable();
  const end = performance.now();
  await engram.close();
  return {
    turns: options.count,
    addSeconds: Number(((flushStart - start) / 1000).toFixed(2)),
    flushSeconds: Number(((end - flushStart) / 1000).toFixed(2)),
    turnsPerSec: Math.round(options.count / ((end - flushStart) / 1000)),
    longestStallMs: Math.round(stalls.max / 1e6),
  } satisfies TierFigures;
}

/** Raw ingest throughput: one message per call and 100 per call, with fsync on every commit or not. */
export async function ingestBench(options: IngestOptions): Promise<IngestFigures[]> {
  const out: IngestFigures[] = [];
  for (const durability of ["full", "normal"] as const) {
    for (const perCall of [1, 100]) out.push(await ingestOne(options, durability, perCall));
  }
  return out;
}
