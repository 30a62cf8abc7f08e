import { createEngram, type Embedder, type Engram } from "@engram/core";
import { SqliteStorage } from "@engram/core/sqlite";
import { storageOf } from "@engram/core/testing";
import { type AnnAgreement, annAgreement } from "./ann-agreement.js";
import type { Corpus } from "./corpus.js";
import { type Latency, latencies, latency } from "./stats.js";

export interface Query {
  readonly text: string;
  readonly vector: Float32Array;
}

export interface SearchFigures {
  readonly scenario: string;
  readonly memories: number;
  readonly users: number;
  /** Memories in the scope a query reads. */
  readonly scopeSize: number;
  /** Whether the scope is large enough for the HNSW index (5,000 vectors) instead of an exact scan. */
  readonly annIndex: boolean;
  /**
   * First search of a scope after opening the store: loads the scope's vectors from SQLite and, from
   * 5,000 vectors, builds and saves the HNSW index (the corpus is new). Over many users: one cold first
   * search per queried user.
   */
  readonly firstSearch: Latency;
  /**
   * The first 100 warm-up queries (not among the measured ones), right after the first search: each
   * term common in the scope is scored on the first query that uses it, so these include that one-off cost.
   */
  readonly firstQueries: Latency;
  /** `engram.search` (k 10, hybrid) with the query vector given, after the warm-up queries. */
  readonly excludingEmbedding: Latency;
  /** `engram.search` embedding the query with USE-lite. */
  readonly includingEmbedding: Latency;
  /** The two channels alone, asked for as many candidates as hybrid search asks each for. */
  readonly fulltextChannel: Latency;
  readonly vectorChannel: Latency;
  /** Hits the engine lists from each channel (its fusion settings). */
  readonly fulltextK: number;
  readonly vectorK: number;
  readonly annAgreement: AnnAgreement | null;
  /** `engram.add` of one message into the queried scope (no embedder, durability full): cost vs scope size. */
  readonly addInScope: Latency;
}

/** Calls per measurement; each stops early after `maxSeconds` once it has 30 samples. */
export interface SearchCounts {
  readonly excluding: number;
  readonly including: number;
  readonly agreement: number;
  readonly adds: number;
  readonly maxSeconds: number;
}

export interface SearchRun {
  readonly scenario: string;
  readonly corpus: Corpus;
  /** Users whose scopes are queried, in turn. */
  readonly queryUsers: readonly string[];
  readonly queries: readonly Query[];
  /** Other questions, asked before measuring (with the measured queries' vectors, in turn). */
  readonly warmup: readonly string[];
  readonly embedder: Embedder;
  readonly counts: SearchCounts;
}

const ANN_THRESHOLD = 5000; // DEFAULT_ANN_THRESHOLD of the SQLite backend's vector cache
const FIRST_QUERIES = 100;
const current = { current: true };

function cycle<T>(items: readonly T[], n: number): T[] {
  return Array.from({ length: n }, (_, i) => items[i % items.length] as T);
}

/** One-message adds into the first queried user's scope, continuing one session. */
async function measureAdds(run: SearchRun): Promise<Latency> {
  const engram = await createEngram({ path: run.corpus.path, embedder: null, background: false });
  const userId = run.queryUsers[0] as string;
  const adds = await latency(
    cycle(run.queries, run.counts.adds),
    (q) => engram.add({ userId, sessionId: "live", messages: [{ role: "user", content: q.text }] }),
    { maxSeconds: run.counts.maxSeconds },
  );
  await engram.close();
  return adds;
}

/** Hybrid search (k 10) in the scope of the i-th queried user, with or without the query vector. */
function searcher(engram: Engram, users: readonly string[]) {
  return (q: Query, i: number, withVector: boolean) =>
    engram.search({
      userId: users[i % users.length] as string,
      query: q.text,
      limit: 10,
      ...(withVector ? { queryVector: q.vector } : {}),
    });
}

/**
 * Warm figures. Other questions are asked first, as a live scope has answered earlier questions (the
 * first of them timed apart); then each measured query runs the hybrid call, then each channel alone at
 * the engine's candidate counts.
 */
async function measureWarm(engram: Engram, run: SearchRun) {
  const search = searcher(engram, run.queryUsers);
  const scopeOf = (i: number) => ({ userId: run.queryUsers[i % run.queryUsers.length] as string });
  const { candidates, textCandidates, vectorCandidates, approximateCandidates } = engram.config.fusion;
  const fulltextK = textCandidates;
  // What hybrid search lists from the vector channel: fewer where the scope is searched through a graph.
  const graph = run.corpus.memories / run.corpus.userIds.length >= ANN_THRESHOLD;
  const vectorK = graph ? approximateCandidates : vectorCandidates;
  const budget = { maxSeconds: run.counts.maxSeconds };
  const warmup = run.warmup.map((text, i) => ({
    text,
    vector: (run.queries[i % run.queries.length] as Query).vector,
  }));
  const firstQueries = await latency(warmup.slice(0, FIRST_QUERIES), (q, i) => search(q, i, true));
  await latency(warmup.slice(FIRST_QUERIES), (q, i) => search(q, FIRST_QUERIES + i, true));
  const warm = await latencies(
    cycle(run.queries, run.counts.excluding),
    {
      excludingEmbedding: (q, i) => search(q, i, true),
      fulltextChannel: async (q, i) => {
        const query = { text: q.text, k: fulltextK, filter: current, statsOver: candidates };
        await storageOf(engram).textSearch(scopeOf(i), query);
        await storageOf(engram).textStats?.(scopeOf(i), query);
      },
      vectorChannel: (q, i) =>
        storageOf(engram).vectorSearch(scopeOf(i), {
          vector: q.vector,
          k: vectorCandidates,
          approximateK: approximateCandidates,
          filter: current,
        }),
    },
    budget,
  );
  const includingEmbedding = await latency(
    cycle(run.queries, run.counts.including),
    (q, i) => search(q, i, false),
    budget,
  );
  return { ...warm, firstQueries, includingEmbedding, fulltextK, vectorK };
}

/** Search latency over one prepared corpus: cold first search, then warm hybrid and per-channel figures. */
export async function measureSearch(run: SearchRun): Promise<SearchFigures> {
  const engram = await createEngram({
    storage: new SqliteStorage({ path: run.corpus.path, durability: "normal" }),
    embedder: run.embedder,
  });
  const search = searcher(engram, run.queryUsers);
  // Cold: each queried user's first search, with the query vector given so only the scope's cost counts.
  const firstSearch = await latency(run.queryUsers, (_, i) =>
    search(run.queries[i % run.queries.length] as Query, i, true),
  );
  const warm = await measureWarm(engram, run);
  const scopeSize = run.corpus.memories / run.corpus.userIds.length;
  const agreement =
    run.corpus.userIds.length === 1
      ? await annAgreement({
          engram,
          userId: run.corpus.userIds[0] as string,
          ...run.corpus.firstUser,
          k: warm.vectorK,
          queries: run.queries.slice(0, run.counts.agreement).map((q) => q.vector),
        })
      : null;
  await engram.close();
  const addInScope = await measureAdds(run);
  return {
    scenario: run.scenario,
    memories: run.corpus.memories,
    users: run.corpus.userIds.length,
    scopeSize,
    annIndex: scopeSize >= ANN_THRESHOLD,
    firstSearch,
    ...warm,
    annAgreement: agreement,
    addInScope,
  };
}
