import { createEngram, type Embedder, type Engram, type Scope } from "@engram/core";
import { SqliteStorage } from "@engram/core/sqlite";
import type { StoragePort, TextQuery, VectorQuery } from "@engram/core/storage";
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

/** What the engine asked the two channels in its latest search, per channel: scope and query. */
interface Asked {
  text: [Scope, TextQuery] | null;
  vector: [Scope, VectorQuery] | null;
}

/**
 * The storage as the engine sees it, noting what each search asks the channels: the channel figures
 * replay those exact queries (the engine drops speaker names from the text and filters by kind, so a
 * query written here would time another search).
 */
function recordingChannels(storage: StoragePort): { storage: StoragePort; asked: Asked } {
  const asked: Asked = { text: null, vector: null };
  const proxy = new Proxy(storage, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key === "textSearch")
        return (scope: Scope, query: TextQuery) => {
          asked.text = [scope, query];
          return target.textSearch(scope, query);
        };
      if (key === "vectorSearch")
        return (scope: Scope, query: VectorQuery) => {
          asked.vector = [scope, query];
          return target.vectorSearch(scope, query);
        };
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { storage: proxy, asked };
}

/**
 * Warm figures. Other questions are asked first, as a live scope has answered earlier questions (the
 * first of them timed apart); then each measured query runs the hybrid call, then each channel alone
 * with what the engine asked it for the previous question: the query just made would be answered from
 * what its search remembers, and time nothing.
 */
async function measureWarm(engram: Engram, storage: StoragePort, asked: Asked, run: SearchRun) {
  const search = searcher(engram, run.queryUsers);
  const { approximateCandidates } = engram.config.fusion;
  // What hybrid search lists from the vector channel: fewer where the scope is searched through a graph.
  const graph = run.corpus.memories / run.corpus.userIds.length >= ANN_THRESHOLD;
  const budget = { maxSeconds: run.counts.maxSeconds };
  const warmup = run.warmup.map((text, i) => ({
    text,
    vector: (run.queries[i % run.queries.length] as Query).vector,
  }));
  const firstQueries = await latency(warmup.slice(0, FIRST_QUERIES), (q, i) => search(q, i, true));
  await latency(warmup.slice(FIRST_QUERIES), (q, i) => search(q, FIRST_QUERIES + i, true));
  const fulltextK = asked.text?.[1].k ?? 0;
  const vectorK = graph ? approximateCandidates : (asked.vector?.[1].k ?? 0);
  let previous: Asked = { ...asked };
  const warm = await latencies(
    cycle(run.queries, run.counts.excluding),
    {
      excludingEmbedding: (q, i) => {
        previous = { ...asked };
        return search(q, i, true);
      },
      // Each channel as the engine runs it: the list, then its statistics when it has hits.
      fulltextChannel: async () => {
        if (!previous.text) return;
        const [scope, query] = previous.text;
        const hits = await storage.textSearch(scope, query);
        if (hits.length && query.statsOver !== undefined) await storage.textStats?.(scope, query);
      },
      vectorChannel: async () => {
        if (!previous.vector) return;
        const [scope, query] = previous.vector;
        const hits = await storage.vectorSearch(scope, query);
        if (hits.length)
          await storage.vectorStats?.(scope, { vector: query.vector, k: hits.length, filter: query.filter });
      },
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
  const { storage, asked } = recordingChannels(
    new SqliteStorage({ path: run.corpus.path, durability: "normal" }),
  );
  const engram = await createEngram({ storage, embedder: run.embedder });
  const search = searcher(engram, run.queryUsers);
  // Cold: each queried user's first search, with the query vector given so only the scope's cost counts.
  const firstSearch = await latency(run.queryUsers, (_, i) =>
    search(run.queries[i % run.queries.length] as Query, i, true),
  );
  const warm = await measureWarm(engram, storage, asked, run);
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
