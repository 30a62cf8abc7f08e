import type { Hit, VectorStats } from "../storage-port.js";
import type { IndexedVectors } from "./indexed-vectors.js";
import { DEFAULT_ANN_THRESHOLD, UserVectors, type VectorEntry } from "./user-vectors.js";
import type { VectorFilter, VectorSet } from "./vector-set.js";

/**
 * One user's vectors, one set per kind. Retrieval asks for one kind at a time (facts, segments, pages),
 * and the small kinds then scan their few vectors exactly, with exact statistics, instead of filtering
 * an index built over the whole scope, where nearly every visited node is rejected. Only a large kind
 * (usually the messages) is searched through a persisted index, which follows the store's vector log
 * itself: writes to it are not applied here.
 */
export class ScopeVectors {
  private readonly kinds = new Map<string, UserVectors>();
  private readonly kindOf = new Map<string, string>();

  constructor(
    readonly dim: number,
    private readonly indexed: ReadonlyMap<string, IndexedVectors> = new Map(),
  ) {}

  /** Vectors held in memory (the indexed sets' are not counted). */
  get size(): number {
    return this.kindOf.size;
  }

  /** Bytes of the vectors held in memory (the indexed sets' are mapped files, not counted). */
  get bytes(): number {
    let bytes = 0;
    for (const set of this.kinds.values()) bytes += set.bytes;
    return bytes;
  }

  /** Whether a set scanned exactly has grown to where it should be indexed (reload the user then). */
  get outgrown(): boolean {
    for (const set of this.kinds.values()) if (set.size >= DEFAULT_ANN_THRESHOLD) return true;
    return false;
  }

  upsert(entry: VectorEntry): void {
    if (entry.vector.length !== this.dim) return;
    const previous = this.kindOf.get(entry.id);
    if (previous !== undefined && previous !== entry.kind) this.kinds.get(previous)?.remove(entry.id);
    if (this.indexed.has(entry.kind)) {
      this.kindOf.delete(entry.id);
      return;
    }
    let set = this.kinds.get(entry.kind);
    if (!set) {
      set = new UserVectors(this.dim);
      this.kinds.set(entry.kind, set);
    }
    set.upsert(entry);
    this.kindOf.set(entry.id, entry.kind);
  }

  /** A copy of the id's vector, or undefined (always for an indexed set's: read those from SQLite). */
  vectorOf(id: string): Float32Array | undefined {
    const kind = this.kindOf.get(id);
    return kind === undefined ? undefined : this.kinds.get(kind)?.vectorOf(id);
  }

  remove(id: string): void {
    const kind = this.kindOf.get(id);
    if (kind === undefined) return;
    this.kinds.get(kind)?.remove(id);
    this.kindOf.delete(id);
  }

  /**
   * The top k over the wanted kinds (all when none are named; at most `approximateK` from a set searched
   * through its graph), and the whole-set statistics when every searched set was scanned exactly (pooled
   * over the sets).
   */
  searchWithStats(
    query: Float32Array,
    k: number,
    filter: VectorFilter,
    kinds?: readonly string[],
    approximateK?: number,
  ): { hits: Hit[]; stats: VectorStats | null } {
    const sets = this.sets(kinds);
    const results = sets.map((set) => set.searchWithStats(query, k, filter, approximateK));
    const one = results.length === 1 ? (results[0] as (typeof results)[number]).hits : null;
    // One set's hits are its best k; they need sorting only if the index did not return them in order.
    const hits = one?.every((h, i) => i === 0 || (one[i - 1] as Hit).score >= h.score)
      ? one
      : results
          .flatMap((r) => r.hits)
          .sort((a, b) => b.score - a.score)
          .slice(0, k);
    const exact = sets.every((set) => set.scansExactly(k, filter));
    return { hits, stats: exact ? pool(results.map((r) => r.stats)) : null };
  }

  stats(query: Float32Array, filter: VectorFilter, kinds?: readonly string[]): VectorStats | null {
    const sets = this.sets(kinds);
    if (!sets.every((set) => set.scansExactly(undefined, filter))) return null;
    return pool(sets.map((set) => set.stats(query, filter)));
  }

  private sets(kinds?: readonly string[]): VectorSet[] {
    const names = kinds ?? [...new Set([...this.kinds.keys(), ...this.indexed.keys()])];
    return names.flatMap((name) => {
      const indexed = this.indexed.get(name);
      indexed?.sync();
      const set = indexed ?? this.kinds.get(name);
      return set && set.size > 0 ? [set] : [];
    });
  }
}

/** Mean and standard deviation over the union of exactly scanned sets (null parts accepted nothing). */
function pool(parts: readonly (VectorStats | null)[]): VectorStats | null {
  let count = 0;
  let sum = 0;
  let squares = 0;
  for (const p of parts) {
    if (p === null) continue;
    count += p.count;
    sum += p.mean * p.count;
    squares += (p.sd * p.sd + p.mean * p.mean) * p.count;
  }
  if (count === 0) return null;
  const mean = sum / count;
  return { mean, sd: Math.sqrt(Math.max(0, squares / count - mean * mean)), count };
}
