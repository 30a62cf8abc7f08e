// `pnpm bench --only vindex`: the SQLite backend's persisted vector index at 10k and 100k memories in one
// scope: the first search after opening the store (cold, a fresh process each), the index build when
// there is no file, replaying another process's unsaved writes, warm p50/p95, and agreement with an
// exact search over the same vectors. Corpora (LoCoMo turns with USE-lite vectors plus noise, as for the
// search figures) and the embedded pool are cached under .engram/bench/.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { embedderFromModel, offlineEmbeddingModel, type StoredMemory } from "@engram/core";
import { SqliteStorage } from "@engram/core/sqlite";
import { testRecord } from "@engram/core/testing";
import Database from "better-sqlite3";
import { exactTopK } from "./ann-agreement.js";
import { type BenchData, otherQuestions, spread } from "./bench-data.js";
import { buildCorpus, type Pool } from "./corpus.js";
import { gaussian, type Latency, latency, seededRandom, summarize } from "./stats.js";

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export interface VectorIndexConfig {
  readonly sizes: readonly number[];
  readonly poolSize: number;
  readonly questions: number;
  /** Fresh processes timed for the cold figure. */
  readonly coldRuns: number;
  readonly agreementQueries: number;
  readonly sigma: number;
  readonly maxSeconds: number;
}

export interface VectorIndexFigures {
  readonly scenario: string;
  readonly memories: number;
  readonly dim: number;
  /** Seconds to write the corpus, or null when it came from the cache. */
  readonly corpusSeconds: number | null;
  /** First search in a fresh process with no index file: builds the graph and saves it. */
  readonly buildMs: number;
  readonly indexFileMiB: number;
  /** Opening the store (fresh process), and its first vector search with the file in place. */
  readonly coldOpen: Latency;
  readonly coldFirstSearch: Latency;
  /** After another process wrote 1,000 memories and exited without saving the index: replayed. */
  readonly replay: { writes: number; firstSearchMs: number; saveOnCloseMs: number };
  /** vectorSearch as hybrid search asks it (k 256, at most 128 from the graph). */
  readonly warm: Latency;
  readonly agreement: {
    readonly queries: number;
    readonly top10AtK10: number;
    readonly top10At128: number;
    readonly top128At128: number;
  };
}

export const VECTOR_INDEX_METHOD =
  "One user's scope of N message memories (LoCoMo dev turns, USE-lite vectors of a 2,000-turn pool plus Gaussian noise of relative size 0.5, as for the search figures). " +
  "Cold: a fresh Node.js process opens the store and runs one vectorSearch (k 256, approximateK 128, what hybrid search asks); open and first search are timed apart, the median of the runs is reported. " +
  "Build: the same with the index files removed (the graph is built from the vectors in SQLite and saved). " +
  "Replay: another process writes 1,000 memories and exits without saving the index; a fresh process's first search replays them from the log. " +
  "Warm: the same call in one process after 50 warm-up queries. Agreement: share of the exact top-k ids (a brute-force scan of the same vectors) returned.";

function log(message: string): void {
  console.error(`[bench] ${message}`);
}

/** The pool's and the questions' USE-lite vectors, embedded once and cached (float32, 512 each). */
export async function embedPool(cacheDir: string, pool: readonly string[], questions: readonly string[]) {
  const file = join(cacheDir, `vector-index-embeddings-${pool.length}-${questions.length}.f32`);
  const texts = [...pool, ...questions];
  let flat: Float32Array;
  if (existsSync(file)) {
    const bytes = readFileSync(file);
    flat = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  } else {
    log(`embedding ${texts.length} texts with USE-lite (cached in ${file})`);
    const vectors = await embedderFromModel(offlineEmbeddingModel()).embed(texts);
    const dim = (vectors[0] as Float32Array).length;
    flat = new Float32Array(texts.length * dim);
    for (const [i, v] of vectors.entries()) flat.set(v, i * dim);
    writeFileSync(file, flat);
  }
  const dim = flat.length / texts.length;
  const at = (i: number) => flat.slice(i * dim, (i + 1) * dim);
  return {
    dim,
    poolVectors: pool.map((_, i) => at(i)),
    questionVectors: questions.map((_, i) => at(pool.length + i)),
  };
}

async function cold(db: string, user: string, query: string): Promise<Record<string, number>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...process.execArgv, here("vector-index-cold.ts"), "--db", db, "--user", user, "--query", query],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split("\n").pop() as string);
}

function indexBytes(db: string): number {
  const root = `${db}-vectors`;
  if (!existsSync(root)) return 0;
  let total = 0;
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      const stat = statSync(full);
      if (stat.isDirectory()) walk(full);
      else total += stat.size;
    }
  };
  walk(root);
  return total;
}

/** The scope's ids and vectors, read back for the exact reference. */
function readScope(db: string, userId: string): { ids: string[]; vectors: Float32Array[] } {
  const raw = new Database(db, { readonly: true });
  const rows = raw
    .prepare(
      "SELECT m.id, v.embedding FROM memories m JOIN vectors v ON v.rowid = m.rowid WHERE m.user_id = ?",
    )
    .all(userId) as { id: string; embedding: Buffer }[];
  raw.close();
  return {
    ids: rows.map((r) => r.id),
    vectors: rows.map(
      (r) =>
        new Float32Array(
          r.embedding.buffer.slice(r.embedding.byteOffset, r.embedding.byteOffset + r.embedding.byteLength),
        ),
    ),
  };
}

const overlap = (found: readonly string[], truth: readonly string[]): number => {
  const want = new Set(truth);
  return found.filter((id) => want.has(id)).length / Math.max(1, truth.length);
};
const mean = (xs: readonly number[]): number =>
  Number((xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length)).toFixed(4));

export async function vectorIndexBench(options: {
  readonly config: VectorIndexConfig;
  readonly data: BenchData;
  readonly cacheDir: string;
}): Promise<VectorIndexFigures[]> {
  const { config, data, cacheDir } = options;
  mkdirSync(cacheDir, { recursive: true });
  const poolTurns = spread(data.turns, config.poolSize);
  const asked = spread(data.questions, config.questions);
  const warmupTexts = otherQuestions(data.questions, asked, 50);
  const { dim, poolVectors, questionVectors } = await embedPool(
    cacheDir,
    poolTurns.map((t) => t.text),
    [...asked, ...warmupTexts],
  );
  const queries = questionVectors.slice(0, asked.length);
  const warmup = questionVectors.slice(asked.length);
  const pool: Pool = { turns: poolTurns, vectors: poolVectors };
  const queryFile = join(cacheDir, "vector-index-query.f32");
  writeFileSync(queryFile, queries[0] as Float32Array);
  const out: VectorIndexFigures[] = [];
  for (const size of config.sizes) {
    const scenario = `1 user, ${size.toLocaleString("en")} memories`;
    const db = join(cacheDir, `vector-index-${size}-${config.poolSize}.db`);
    const complete = `${db}.complete`;
    let corpusSeconds: number | null = null;
    if (!existsSync(complete)) {
      for (const suffix of ["", "-wal", "-shm", "-vectors"])
        rmSync(`${db}${suffix}`, { recursive: true, force: true });
      log(`building ${scenario} (cached in ${db})`);
      const corpus = await buildCorpus({
        path: db,
        users: 1,
        perUser: size,
        pool,
        sigma: config.sigma,
        seed: 11,
      });
      corpusSeconds = corpus.seconds;
      writeFileSync(complete, "");
    }
    const userId = "user-0000";
    log(`${scenario}: index build (fresh process, no index file)`);
    rmSync(`${db}-vectors`, { recursive: true, force: true });
    const build = await cold(db, userId, queryFile);
    const indexFileMiB = Number((indexBytes(db) / 1024 / 1024).toFixed(1));
    log(`${scenario}: cold opens (${config.coldRuns} fresh processes)`);
    const colds: Record<string, number>[] = [];
    for (let i = 0; i < config.coldRuns; i++) colds.push(await cold(db, userId, queryFile));
    log(`${scenario}: warm searches`);
    const storage = new SqliteStorage({ path: db });
    const scope = { userId };
    const ask = (vector: Float32Array) => storage.vectorSearch(scope, { vector, k: 256, approximateK: 128 });
    for (const vector of warmup) await ask(vector);
    const warm = await latency(queries, (vector) => ask(vector), { maxSeconds: config.maxSeconds });
    log(`${scenario}: agreement with an exact scan (${config.agreementQueries} queries)`);
    const reference = readScope(db, userId);
    const at10: number[] = [];
    const top10: number[] = [];
    const wide: number[] = [];
    for (const vector of queries.slice(0, config.agreementQueries)) {
      const truth = exactTopK(reference.ids, reference.vectors, vector, 128);
      const k10 = (await storage.vectorSearch(scope, { vector, k: 10 })).map((h) => h.id);
      const k128 = (await storage.vectorSearch(scope, { vector, k: 128 })).map((h) => h.id);
      at10.push(overlap(k10, truth.slice(0, 10)));
      top10.push(overlap(k128.slice(0, 10), truth.slice(0, 10)));
      wide.push(overlap(k128, truth));
    }
    await storage.close();
    log(`${scenario}: replay of 1,000 writes another process did not save into the index`);
    const replay = await replayFigures(db, userId, queryFile, pool, config.sigma);
    out.push({
      scenario,
      memories: size,
      dim,
      corpusSeconds,
      buildMs: build.firstSearchMs as number,
      indexFileMiB,
      coldOpen: summarize(colds.map((c) => c.openMs as number)),
      coldFirstSearch: summarize(colds.map((c) => c.firstSearchMs as number)),
      replay,
      warm,
      agreement: {
        queries: at10.length,
        top10AtK10: mean(at10),
        top10At128: mean(top10),
        top128At128: mean(wide),
      },
    });
  }
  return out;
}

/**
 * Another process writes 1,000 memories and closes without having searched (so it saves no index):
 * the file is then stale, and a fresh process's first search replays the log. The rows are deleted
 * afterwards so the cached corpus stays as built.
 */
async function replayFigures(db: string, userId: string, queryFile: string, pool: Pool, sigma: number) {
  const writes = 1000;
  const random = seededRandom(99);
  const normal = gaussian(random);
  const writer = new SqliteStorage({ path: db, durability: "normal" });
  const ids: string[] = [];
  const upsert: StoredMemory[] = Array.from({ length: writes }, (_, i) => {
    const base = pool.vectors[Math.floor(random() * pool.vectors.length)] as Float32Array;
    const vector = base.map((x) => x + (sigma / Math.sqrt(base.length)) * normal());
    const norm = Math.hypot(...vector);
    ids.push(`replay-${i}`);
    return {
      record: testRecord(`replay-${i}`, userId, `replayed ${i}`, { role: "user" }),
      vector: vector.map((x) => x / norm),
    };
  });
  await writer.write({ userId }, { upsert });
  await writer.close();
  const replayed = await cold(db, userId, queryFile);
  const cleaner = new SqliteStorage({ path: db, durability: "normal" });
  await cleaner.write({ userId }, { deleteIds: ids });
  await cleaner.close();
  return {
    writes,
    firstSearchMs: replayed.firstSearchMs as number,
    saveOnCloseMs: replayed.closeMs as number,
  };
}

const fmt = (x: number): string => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

/** The markdown table of docs/benchmarks.md's vector index section. */
export function vectorIndexTable(figures: readonly VectorIndexFigures[]): string {
  const header =
    "| scenario | cold: open / first search (ms, median) | cold first search max | build (no file) | index file | replay 1,000 unsaved writes | warm p50 / p95 | top-10 at k 10 | top-10 / top-128 at k 128 |";
  const rule = `|${header
    .split("|")
    .slice(1, -1)
    .map(() => " --- ")
    .join("|")}|`;
  const rows = figures.map(
    (f) =>
      `| ${f.scenario} | ${fmt(f.coldOpen.p50)} / ${fmt(f.coldFirstSearch.p50)} | ${fmt(f.coldFirstSearch.max)} | ${(f.buildMs / 1000).toFixed(1)} s | ${f.indexFileMiB} MiB | ${fmt(f.replay.firstSearchMs)} ms (+ save on close ${fmt(f.replay.saveOnCloseMs)} ms) | ${fmt(f.warm.p50)} / ${fmt(f.warm.p95)} | ${f.agreement.top10AtK10} | ${f.agreement.top10At128} / ${f.agreement.top128At128} |`,
  );
  return [header, rule, ...rows].join("\n");
}
