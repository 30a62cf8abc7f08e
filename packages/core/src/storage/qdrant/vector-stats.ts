import type { Scope } from "../../model/index.js";
import type { VectorQuery, VectorStats } from "../storage-port.js";
import { memoryFilter } from "./filter.js";
import type { Points } from "./points.js";

/** Cached vector sets (user, dimension, filter); least recently used go first. */
const MAX_CACHED_SETS = 16;

interface CachedSet {
  readonly count: number;
  readonly generation: number;
  readonly vectors: Float32Array[];
}

/**
 * The mean and standard deviation of the similarity between a query and every vector a filter admits,
 * computed exactly over the vectors, as the SQLite backend does below its approximate-index threshold.
 * The vectors of a (user, filter) set are read once and kept: a `count` request per call tells whether
 * points were added or removed since, and this store's own writes to the user drop the user's sets. An
 * in-place vector change by another process is seen only when the set's size changes; the statistics of a
 * whole scope barely move with one vector, so that staleness is harmless for normalising scores.
 */
export class VectorStatsCache {
  private readonly sets = new Map<string, CachedSet>();
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly points: Points,
    /** Above this many vectors the statistics are not computed (null), like an approximate index. */
    private readonly limit: number,
  ) {}

  /** This store wrote to the user: their cached sets may be stale. */
  invalidate(userId: string): void {
    this.generations.set(userId, (this.generations.get(userId) ?? 0) + 1);
  }

  async stats(collection: string, scope: Scope, query: VectorQuery): Promise<VectorStats | null> {
    const filter = memoryFilter(scope, query.filter);
    const count = await this.points.count(collection, filter);
    if (count === 0 || count > this.limit) return null;
    const key = JSON.stringify([collection, scope.userId, query.filter ?? {}]);
    const generation = this.generations.get(scope.userId) ?? 0;
    let set = this.sets.get(key);
    if (!set || set.count !== count || set.generation !== generation) {
      const found = await this.points.scroll(collection, filter, false, true);
      set = {
        count: found.length,
        generation,
        vectors: found.map((p) => Float32Array.from(p.vector?.dense ?? [])),
      };
    }
    this.sets.delete(key);
    this.sets.set(key, set);
    if (this.sets.size > MAX_CACHED_SETS) this.sets.delete(this.sets.keys().next().value as string);
    return similarityStats(query.vector, set.vectors);
  }
}

/** Mean and (population) standard deviation of the dot product of `query` with each vector. */
export function similarityStats(query: Float32Array, vectors: readonly Float32Array[]): VectorStats | null {
  if (vectors.length === 0) return null;
  let sum = 0;
  let squares = 0;
  for (const v of vectors) {
    let dot = 0;
    for (let i = 0; i < query.length; i++) dot += (query[i] as number) * (v[i] as number);
    sum += dot;
    squares += dot * dot;
  }
  const mean = sum / vectors.length;
  return { mean, sd: Math.sqrt(Math.max(0, squares / vectors.length - mean * mean)), count: vectors.length };
}
