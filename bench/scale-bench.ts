// `pnpm bench --only scale`: a million memories over 1,000 users in one SQLite store. Builds the store
// (cached under .engram/bench/), then times opening it, search and retrieve (query embedding excluded) for
// a user with 1,000 memories and one with 100,000, and forgetting a 1,000-memory user, with the process's
// RSS sampled throughout. Not part of the default `pnpm bench`: the store takes minutes to build.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createEngram, type Embedder, type Engram } from "@engram/core";
import { type BenchData, otherQuestions, spread } from "./bench-data.js";
import { buildCorpus, type Pool } from "./corpus.js";
import { type Latency, summarize, timed } from "./stats.js";
import { embedPool } from "./vector-index.js";

export interface ScaleConfig {
  readonly users: number;
  /** The large user's memories, and the small users' (two of them: one queried, one forgotten). */
  readonly largeUser: number;
  readonly smallUser: number;
  readonly total: number;
  readonly poolSize: number;
  readonly questions: number;
  readonly sigma: number;
  /** Users searched once each after the two measured ones (the vectors held in memory stay bounded). */
  readonly manyUsers: number;
}

/** What the cache's marker keeps of the run that wrote the store. */
interface Built {
  readonly seconds: number;
  readonly at: string;
}

export const SCALE: ScaleConfig = {
  users: 1000,
  largeUser: 100_000,
  smallUser: 1000,
  total: 1_000_000,
  poolSize: 2000,
  questions: 200,
  sigma: 0.5,
  manyUsers: 300,
};

/** Latency with the 99th percentile, which the goals name. */
export interface TailLatency extends Latency {
  readonly p99: number;
}

export interface ScopeFigures {
  readonly memories: number;
  /** The first search of the scope after opening the store (loads its vectors; builds or opens the index). */
  readonly firstSearchMs: number;
  readonly search: TailLatency;
  readonly retrieve: TailLatency;
  /** The same questions searched again: each term's first use in the scope already paid. */
  readonly searchAgain: TailLatency;
}

export interface ScaleFigures {
  readonly memories: number;
  readonly users: number;
  /** Seconds to write the store (when it came from the cache, those of the run that wrote it). */
  readonly buildSeconds: number;
  readonly writesPerSecond: number;
  /** When the store was written: this run, or an earlier one whose cached store this run read. */
  readonly builtAt: string;
  readonly fileMiB: { readonly database: number; readonly indexes: number };
  readonly openMs: number;
  readonly small: ScopeFigures;
  readonly large: ScopeFigures;
  /** One question each for `users` other users in turn: every search a user's first since the open. */
  readonly manyUsers: { readonly users: number; readonly search: TailLatency; readonly rssMiBAfter: number };
  readonly forgetMs: number;
  readonly rssMiB: { readonly afterOpen: number; readonly peak: number; readonly atEnd: number };
  readonly goals: readonly { readonly goal: string; readonly measured: string; readonly met: boolean }[];
}

export const SCALE_METHOD =
  "One SQLite store of 1,000,000 message memories over 1,000 users: one user with 100,000, two with 1,000 (one queried, one forgotten), the rest about 900 each. " +
  "Texts are LoCoMo dev turns drawn from a 2,000-turn pool, vectors their USE-lite vectors plus Gaussian noise of relative size 0.5 (as for the search figures), written through the storage port one 100-turn session per write (durability normal). " +
  "In one process: open (createEngram and the first stats call), then per user the first search and 20 warm-up questions, then 200 LoCoMo questions through engram.search (k 10) and engram.retrieve (1,500 tokens) in turn; the query embedding is excluded by an embedder that returns each question's precomputed USE-lite vector. " +
  "Then the same 200 questions again through engram.search, each term's first use in the scope already paid. Then one question each for 300 other users in turn, each user's first search since the open (its vectors read from SQLite, its terms' first use). Then engram.forget of the second 1,000-memory user (restored afterwards from its export, so the cached store stays whole). RSS is sampled every 50 ms.";

const round = (x: number, digits = 1) => Number(x.toFixed(digits));

function withP99(samples: number[]): TailLatency {
  const sorted = [...samples].sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length, Math.ceil(0.99 * sorted.length)) - 1] ?? Number.NaN;
  return { ...summarize(samples), p99: round(p99, 3) };
}

function sizes(config: ScaleConfig): number[] {
  const rest = config.users - 3;
  const left = config.total - config.largeUser - 2 * config.smallUser;
  const base = Math.floor(left / rest);
  const extra = left - base * rest;
  return [
    config.largeUser,
    config.smallUser,
    config.smallUser,
    ...Array.from({ length: rest }, (_, i) => base + (i < extra ? 1 : 0)),
  ];
}

function bytesUnder(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0);
}

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9']+/g) ?? []);

/**
 * An embedder that answers each benchmark question with its precomputed vector: no model time. A query
 * the engine rewrote (a speaker's name turned into "I") gets the vector of the question sharing most
 * words with it, the one it was made from.
 */
export function precomputed(texts: readonly string[], vectors: readonly Float32Array[]): Embedder {
  const byText = new Map(texts.map((t, i) => [t, vectors[i] as Float32Array]));
  const known = texts.map((t, i) => ({ words: words(t), vector: vectors[i] as Float32Array }));
  const nearest = (text: string): Float32Array => {
    const asked = words(text);
    let best = known[0] as (typeof known)[number];
    let bestShared = -1;
    for (const k of known) {
      let shared = 0;
      for (const w of asked) if (k.words.has(w)) shared++;
      if (shared > bestShared) [best, bestShared] = [k, shared];
    }
    return best.vector;
  };
  return {
    id: "bench/precomputed-use-lite",
    async embed(asked) {
      return asked.map((t) => byText.get(t) ?? nearest(t));
    },
  };
}

async function measureScope(
  engram: Engram,
  userId: string,
  memories: number,
  questions: readonly string[],
  warmup: readonly string[],
): Promise<ScopeFigures> {
  const first = await timed(() => engram.search({ userId, query: warmup[0] as string, limit: 10 }));
  // Each term common in the scope is scored on the first query that uses it: not what a warm store pays.
  for (const query of warmup) {
    await engram.search({ userId, query, limit: 10 });
    await engram.retrieve({ userId, query, budgetTokens: 1500 });
  }
  const search: number[] = [];
  const retrieve: number[] = [];
  for (const query of questions) {
    search.push((await timed(() => engram.search({ userId, query, limit: 10 }))).ms);
    retrieve.push((await timed(() => engram.retrieve({ userId, query, budgetTokens: 1500 }))).ms);
  }
  const again: number[] = [];
  for (const query of questions)
    again.push((await timed(() => engram.search({ userId, query, limit: 10 }))).ms);
  return {
    memories,
    firstSearchMs: first.ms,
    search: withP99(search),
    retrieve: withP99(retrieve),
    searchAgain: withP99(again),
  };
}

export async function scaleBench(options: {
  readonly data: BenchData;
  readonly cacheDir: string;
  readonly config?: ScaleConfig;
  readonly log: (message: string) => void;
}): Promise<ScaleFigures> {
  const { data, cacheDir, log } = options;
  const config = options.config ?? SCALE;
  mkdirSync(cacheDir, { recursive: true });
  const poolTurns = spread(data.turns, config.poolSize);
  const asked = spread(data.questions, config.questions);
  const warm = otherQuestions(data.questions, asked, 20);
  const { poolVectors, questionVectors } = await embedPool(
    cacheDir,
    poolTurns.map((t) => t.text),
    [...asked, ...warm],
  );
  const pool: Pool = { turns: poolTurns, vectors: poolVectors };
  const db = join(cacheDir, `scale-${config.total}-${config.users}.db`);
  const complete = `${db}.complete`;
  // The marker holds the build's figures; one without them is a store of unknown origin, written again.
  if (!existsSync(complete) || readFileSync(complete, "utf8").trim() === "") {
    for (const suffix of ["", "-wal", "-shm", "-vectors"])
      rmSync(`${db}${suffix}`, { recursive: true, force: true });
    log(
      `scale: writing ${config.total.toLocaleString("en")} memories over ${config.users} users (cached in ${db})`,
    );
    let next = 100_000;
    const corpus = await buildCorpus({
      path: db,
      users: config.users,
      perUser: 0,
      sizes: sizes(config),
      pool,
      sigma: config.sigma,
      seed: 23,
      onUser: (written) => {
        if (written >= next) {
          log(`scale: ${written.toLocaleString("en")} written`);
          next += 100_000;
        }
      },
    });
    const built: Built = { seconds: corpus.seconds, at: new Date().toISOString() };
    writeFileSync(complete, JSON.stringify(built));
  }
  const built = JSON.parse(readFileSync(complete, "utf8")) as Built;

  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const sampler = setInterval(sample, 50);
  try {
    const embedder = precomputed([...asked, ...warm], questionVectors);
    const opened = await timed(async () => {
      const engram = await createEngram({ path: db, embedder, background: false, logger: false });
      await engram.stats({ userId: "user-0001" });
      return engram;
    });
    const engram = opened.value;
    const afterOpen = process.memoryUsage().rss;
    try {
      log("scale: searching the 1,000-memory user");
      const small = await measureScope(engram, "user-0001", config.smallUser, asked, warm);
      log("scale: searching the 100,000-memory user");
      const large = await measureScope(engram, "user-0000", config.largeUser, asked, warm);
      log(`scale: one question each for ${config.manyUsers} other users`);
      const firstSearches: number[] = [];
      for (let i = 0; i < config.manyUsers; i++) {
        const userId = `user-${String(3 + i).padStart(4, "0")}`;
        const query = asked[i % asked.length] as string;
        firstSearches.push((await timed(() => engram.search({ userId, query, limit: 10 }))).ms);
      }
      const manyUsers = {
        users: config.manyUsers,
        search: withP99(firstSearches),
        rssMiBAfter: round(process.memoryUsage().rss / 2 ** 20),
      };
      log("scale: forgetting a 1,000-memory user");
      const dump = await engram.export({ userId: "user-0002" });
      const forget = await timed(() => engram.forget({ userId: "user-0002" }));
      await engram.import(dump);
      sample();
      const fileMiB = {
        database: round((bytesUnder(db) + bytesUnder(`${db}-wal`)) / 2 ** 20),
        indexes: round(bytesUnder(`${db}-vectors`) / 2 ** 20),
      };
      const rssMiB = {
        afterOpen: round(afterOpen / 2 ** 20),
        peak: round(peak / 2 ** 20),
        atEnd: round(process.memoryUsage().rss / 2 ** 20),
      };
      const goal = (name: string, value: number, limit: number, unit: string) => ({
        goal: `${name} <= ${limit} ${unit}`,
        measured: `${value} ${unit}`,
        met: value <= limit,
      });
      return {
        memories: config.total,
        users: config.users,
        buildSeconds: built.seconds,
        writesPerSecond: Math.round(config.total / built.seconds),
        builtAt: built.at,
        fileMiB,
        openMs: opened.ms,
        small,
        large,
        manyUsers,
        forgetMs: forget.ms,
        rssMiB,
        goals: [
          goal("search p95, 100,000-memory user", large.search.p95, 20, "ms"),
          goal("search p95, 1,000-memory user", small.search.p95, 20, "ms"),
          goal("retrieve p95, 100,000-memory user", large.retrieve.p95, 40, "ms"),
          goal("retrieve p95, 1,000-memory user", small.retrieve.p95, 40, "ms"),
          goal("forget of a 1,000-memory user", forget.ms, 1000, "ms"),
        ],
      };
    } finally {
      await engram.close();
    }
  } finally {
    clearInterval(sampler);
  }
}

export function scaleTable(f: ScaleFigures): string {
  const row = (name: string, s: ScopeFigures) =>
    `| ${name} | ${s.firstSearchMs} | ${s.search.p50} / ${s.search.p95} / ${s.search.p99} | ${s.retrieve.p50} / ${s.retrieve.p95} / ${s.retrieve.p99} | ${s.searchAgain.p50} / ${s.searchAgain.p95} / ${s.searchAgain.p99} |`;
  return [
    `${f.memories.toLocaleString("en")} memories, ${f.users} users; written in ${f.buildSeconds} s (${f.writesPerSecond}/s, ${f.builtAt}); ${f.fileMiB.database} MiB database + ${f.fileMiB.indexes} MiB index files; opened in ${f.openMs} ms`,
    "",
    "| user | first search (ms) | search p50 / p95 / p99 (ms) | retrieve p50 / p95 / p99 (ms) | the questions searched again, p50 / p95 / p99 (ms) |",
    "| --- | --- | --- | --- | --- |",
    row(`${f.small.memories.toLocaleString("en")} memories`, f.small),
    row(`${f.large.memories.toLocaleString("en")} memories`, f.large),
    "",
    `one question each for ${f.manyUsers.users} other users of about 900 memories, each the user's first search since the open: p50 / p95 / p99 ${f.manyUsers.search.p50} / ${f.manyUsers.search.p95} / ${f.manyUsers.search.p99} ms; RSS after ${f.manyUsers.rssMiBAfter} MiB`,
    "",
    `forget of a 1,000-memory user: ${f.forgetMs} ms; RSS after open ${f.rssMiB.afterOpen} MiB, peak ${f.rssMiB.peak} MiB, at the end ${f.rssMiB.atEnd} MiB`,
    "",
    ...f.goals.map((g) => `- ${g.met ? "met" : "NOT met"}: ${g.goal} (measured ${g.measured})`),
  ].join("\n");
}
