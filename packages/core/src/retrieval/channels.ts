import { EngramError } from "../errors/index.js";
import type { Scope } from "../model/index.js";
import type { Hit, MemoryFilter } from "../storage/index.js";
import { type Channel, type FusedHit, fuseRankings } from "./fuse-rankings.js";
import type { QueryPorts } from "./query-ports.js";

/** The query's vector, or null without an embedder or when the embedding model is down. */
export async function embedQuery(ports: Pick<QueryPorts, "embedder" | "events" | "clock">, query: string) {
  if (!ports.embedder) return null;
  try {
    const [vector] = await ports.embedder.embed([query]);
    return vector ?? null;
  } catch (cause) {
    // The embedding model is down: answer from full-text rather than fail the read, and say so.
    if (EngramError.isInstance(cause) && cause.code === "MODEL") {
      ports.events?.({
        type: "embedder.unavailable",
        at: ports.clock().toISOString(),
        fallback: "fulltext",
        error: cause.message,
      });
      return null;
    }
    throw cause;
  }
}

export interface ChannelQuery {
  readonly scope: Scope;
  readonly text: string;
  /** What full-text searches, when not `text` (the speaker's query leaves a named speaker out). */
  readonly searchText?: string;
  /**
   * null: the vector channel does not run. A pending vector (the query still being embedded on the
   * model's thread) lets the full-text channel run meanwhile.
   */
  readonly vector: Float32Array | null | Promise<Float32Array | null>;
  readonly k: number;
  readonly filter: MemoryFilter;
  readonly channels: ReadonlySet<Channel>;
}

interface DenseList {
  readonly hits: Hit[];
  readonly stats: { mean: number; sd: number } | null;
}

/**
 * The channels' answers to one query, and fusion over them. `fuse(vector)` runs the vector channel again
 * for another query vector (feedback) and fuses it with the same full-text list.
 */
export interface ChannelAnswers {
  readonly fused: FusedHit[];
  fuse(vector: Float32Array): Promise<FusedHit[]>;
}

/**
 * Stage 1, channels and fusion: full-text and vector lists from storage, fused by score (z-scores over the
 * backend's statistics when it has them, else over the lists themselves).
 */
export async function runChannels(ports: QueryPorts, q: ChannelQuery): Promise<ChannelAnswers> {
  const { storage, fusion } = ports;
  const n = Math.max(fusion.candidates, q.k);
  // A backend that describes more full-text matches than it lists (textStats) lists fewer: the fusion
  // then takes its statistics over n matches and ranks the best listed ones.
  const zscore = fusion.method === "zscore";
  const describes = zscore && storage.textStats !== undefined;
  const text = q.searchText ?? q.text;
  const textQuery = describes
    ? { text, k: Math.max(fusion.textCandidates, q.k), filter: q.filter, statsOver: n }
    : { text, k: n, filter: q.filter };
  const dense = async (vector: Float32Array | null): Promise<DenseList> => {
    if (!vector || !q.channels.has("vector")) return { hits: [], stats: null };
    const hits = await storage.vectorSearch(q.scope, {
      vector,
      k: Math.max(fusion.vectorCandidates, q.k),
      approximateK: Math.max(fusion.approximateCandidates, q.k),
      filter: q.filter,
    });
    const stats =
      hits.length && zscore && storage.vectorStats
        ? await storage.vectorStats(q.scope, { vector, k: hits.length, filter: q.filter })
        : null;
    return { hits, stats };
  };
  const [fulltext, first] = await Promise.all([
    q.channels.has("fulltext") ? storage.textSearch(q.scope, textQuery) : [],
    Promise.resolve(q.vector).then(dense),
  ]);
  const textStats =
    fulltext.length && describes && storage.textStats ? await storage.textStats(q.scope, textQuery) : null;
  const fuse = (list: DenseList) => {
    const stats = {
      ...(list.stats ? { vector: list.stats } : {}),
      ...(textStats ? { fulltext: textStats } : {}),
    };
    const options = list.stats || textStats ? { ...fusion, stats } : fusion;
    return fuseRankings({ fulltext, vector: list.hits }, options);
  };
  return { fused: fuse(first), fuse: async (vector) => fuse(await dense(vector)) };
}
