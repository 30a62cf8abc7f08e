// Hybrid search alone, made to time two builds side by side: one corpus written as the perf part writes
// its search corpora (a 2,000-turn LoCoMo pool with USE-lite vectors plus noise, one 100-turn session
// per write), then 500 warm-up and 500 measured `engram.search` calls (k 10, the question's USE-lite
// vector given) over the queried users in turn. Prints one JSON line:
//   pnpm tsx --conditions=@engram/source bench/search-alone.ts [--users 1 --per-user 10000] [--rounds 1]
// --stages adds the mean time of each stage of the query path per search (its telemetry spans, timed by a
// tracer of this script's own; the spans' small cost then counts in the search figure too).
// The texts' vectors are embedded once and kept in --cache (default .engram/bench). Copied into a
// worktree of an older commit and given the same --cache, it times that commit's engine on the same input.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createEngram } from "@engram/core";
import { loadBenchData, otherQuestions, spread } from "./bench-data.js";
import { buildCorpus } from "./corpus.js";
import { latency } from "./stats.js";

const { values } = parseArgs({
  options: {
    data: { type: "string", default: "../shared/data/locomo/locomo-dev.json" },
    users: { type: "string", default: "1" },
    "per-user": { type: "string", default: "10000" },
    cache: { type: "string", default: ".engram/bench" },
    // The measured questions asked this many times over: more samples for a small difference.
    rounds: { type: "string", default: "1" },
    stages: { type: "boolean", default: false },
  },
});
const users = Number(values.users);
const perUser = Number(values["per-user"]);
const POOL = 2000;
const QUESTIONS = 500;

/** USE-lite vectors of `texts`, embedded on the first run and read back from the cache after. */
async function vectorsOf(texts: readonly string[]): Promise<Float32Array[]> {
  const file = join(values.cache as string, `search-alone-${texts.length}.f32`);
  if (!existsSync(file)) {
    const { embedderFromModel, offlineEmbeddingModel } = await import("@engram/core");
    const vectors = await embedderFromModel(offlineEmbeddingModel()).embed(texts);
    mkdirSync(values.cache as string, { recursive: true });
    writeFileSync(file, Buffer.concat(vectors.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength))));
  }
  const bytes = readFileSync(file);
  const flat = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const dim = flat.length / texts.length;
  return texts.map((_, i) => flat.slice(i * dim, (i + 1) * dim));
}

/** A tracer that adds up each span's wall time by name: enough of OpenTelemetry's for the engine. */
function stageTimer() {
  const totals = new Map<string, number>();
  let counting = false;
  const tracer = {
    startActiveSpan<F extends (span: never) => unknown>(name: string, _options: unknown, fn: F) {
      const start = performance.now();
      const span = {
        setAttribute: () => span,
        recordException: () => undefined,
        setStatus: () => span,
        end: () => {
          if (counting) totals.set(name, (totals.get(name) ?? 0) + performance.now() - start);
        },
      };
      return fn(span as never) as ReturnType<F>;
    },
  };
  return {
    tracer,
    count: () => {
      counting = true;
    },
    perSearch: (searches: number) =>
      Object.fromEntries([...totals].map(([name, ms]) => [name, Number((ms / searches).toFixed(3))])),
  };
}

// The SQLite backend's entry moved to a subpath on 2026-12-02; the root served it before.
const { SqliteStorage } = (await import("@engram/core/sqlite").catch(
  () => import("@engram/core"),
)) as typeof import("@engram/core/sqlite");

const dir = await mkdtemp(join(tmpdir(), "engram-search-alone-"));
try {
  const data = await loadBenchData(values.data as string);
  const turns = spread(data.turns, POOL);
  const questions = spread(data.questions, QUESTIONS);
  const vectors = await vectorsOf([...turns.map((t) => t.text), ...questions]);
  const questionVectors = vectors.slice(POOL);
  const path = join(dir, "search.db");
  const corpus = await buildCorpus({
    path,
    users,
    perUser,
    pool: { turns, vectors: vectors.slice(0, POOL) },
    sigma: 0.5,
    seed: 7,
  });
  // Every query passes its vector: the embedder only fills the engine's option.
  const storage = new SqliteStorage({ path, durability: "normal" });
  const stages = values.stages ? stageTimer() : null;
  const engram = await createEngram({
    storage,
    ...(stages ? { telemetry: { tracer: stages.tracer } } : {}),
    embedder: {
      id: "engram/use-lite-512",
      embed: async (texts: readonly string[]) => texts.map(() => questionVectors[0] as Float32Array),
    },
  });
  const queried = users === 1 ? corpus.userIds : spread(corpus.userIds, 100);
  const search = (query: string, i: number) =>
    engram.search({
      userId: queried[i % queried.length] as string,
      query,
      limit: 10,
      queryVector: questionVectors[i % QUESTIONS] as Float32Array,
    });
  await latency(otherQuestions(data.questions, questions, QUESTIONS), search);
  const rounds = Number(values.rounds);
  const asked = Array.from({ length: rounds }, () => questions).flat();
  stages?.count();
  const measured = await latency(asked, search);
  // The speaker probe alone: the scan search makes of the newest 50 turns when a query names someone.
  const newest = {
    filter: { kinds: ["message" as const], current: true },
    order: "desc" as const,
    limit: 50,
  };
  const probe = await latency(questions, (_, i) =>
    storage.scan({ userId: queried[i % queried.length] as string }, newest),
  );
  await engram.close();
  const perStage = stages ? { stagesMs: stages.perSearch(asked.length) } : {};
  console.log(JSON.stringify({ users, perUser, search: measured, speakerProbe: probe, ...perStage }));
} finally {
  await rm(dir, { recursive: true, force: true });
}
