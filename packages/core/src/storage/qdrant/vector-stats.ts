import type { Scope } from "../../model/index.js";
import type { VectorQuery, VectorStats } from "../storage-port.js";
import { memoryFilter } from "./filter.js";
import type { Points } from "./points.js";

/** Cached vector sets (user, dimension, filter); least recently used go first. */
const MAX_CACHED_SETS = 16;

interface CachedSet {
  readonly userId: string;
  readonly generation: number;
  /** Vectors by point id. */
  vectors: Map<string, Float32Array>;
  /** Points this store wrote since the set was read: their vectors are read again. */
  readonly stale: Set<string>;
}

/**
 * The mean and standard deviation of the similarity between a query and every vector a filter admits,
 * computed exactly over the vectors, as the SQLite backend does below its approximate-index threshold.
 * The vectors of a (user, filter) set are read once and kept. A `count` request per call tells whether
 * points were added or removed since; after a change, or after this store wrote memories of the user,
 * the set's point ids are listed (no vectors) and only new or rewritten points' vectors are read, so a
 * search after a write does not download the whole set again. An in-place vector change by another
 * process is seen only when the set's size changes; the statistics of a whole scope barely move with one
 * vector, so that staleness is harmless for normalising scores.
 */
export class VectorStatsCache {
  private readonly sets = new Map<string, CachedSet>();
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly points: Points,
    /** Above this many vectors the statistics are not computed (null), like an approximate index. */
    private readonly limit: number,
  ) {}

  /**
   * This store wrote memories of the user: with their ids, only those points are read again; without,
   * every cached set of the user is dropped (e.g. the user was forgotten).
   */
  invalidate(userId: string, memoryPointIds?: readonly string[]): void {
    if (memoryPointIds === undefined) {
      this.generations.set(userId, (this.generations.get(userId) ?? 0) + 1);
      return;
    }
    for (const set of this.sets.values()) {
      if (set.userId === userId) for (const id of memoryPointIds) set.stale.add(id);
    }
  }

  async stats(collection: string, scope: Scope, query: VectorQuery): Promise<VectorStats | null> {
    const filter = memoryFilter(scope, query.filter);
    const count = await this.points.count(collection, filter);
    if (count === 0 || count > this.limit) return null;
    const key = JSON.stringify([collection, scope.userId, query.filter ?? {}]);
    const generation = this.generations.get(scope.userId) ?? 0;
    let set = this.sets.get(key);
    if (!set || set.generation !== generation) {
      const found = await this.points.scroll(collection, filter, false, true);
      set = { userId: scope.userId, generation, vectors: vectorMap(found), stale: new Set() };
    } else if (set.vectors.size !== count || set.stale.size > 0) {
      await this.refresh(collection, filter, set);
    }
    this.sets.delete(key);
    this.sets.set(key, set);
    if (this.sets.size > MAX_CACHED_SETS) this.sets.delete(this.sets.keys().next().value as string);
    return similarityStats(query.vector, [...set.vectors.values()]);
  }

  /** Lists the set's point ids and reads the vectors of the new and rewritten points only. */
  private async refresh(collection: string, filter: Parameters<Points["scroll"]>[1], set: CachedSet) {
    const ids = (await this.points.scroll(collection, filter, false, false)).map((p) => String(p.id));
    const wanted = ids.filter((id) => !set.vectors.has(id) || set.stale.has(id));
    const fetched = vectorMap(
      wanted.length ? await this.points.retrieve(collection, wanted, false, true) : [],
    );
    const next = new Map<string, Float32Array>();
    for (const id of ids) {
      const vector = fetched.get(id) ?? set.vectors.get(id);
      if (vector) next.set(id, vector);
    }
    set.vectors = next;
    set.stale.clear();
  }
}

function vectorMap(points: readonly { id: string | number; vector?: { dense?: number[] } }[]) {
  return new Map(points.map((p) => [String(p.id), Float32Array.from(p.vector?.dense ?? [])] as const));
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
