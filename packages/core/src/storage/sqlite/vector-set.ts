import type { Hit, VectorStats } from "../storage-port.js";

export interface VectorAttrs {
  readonly kind: string;
  readonly tier: string;
  readonly expired: boolean;
}

/**
 * Which vectors a search considers. Without `accept` every live vector passes, and an indexed search
 * runs without a per-node callback into JavaScript, which costs more than the search itself.
 */
export interface VectorFilter {
  /** A test on an entry's attributes and id. */
  readonly accept?: (attrs: VectorAttrs, id: string) => boolean;
  /** Skip entries that are no longer current. */
  readonly current?: boolean;
  /** Only these ids: scored directly, without a scan or the index. */
  readonly ids?: ReadonlySet<string>;
}

/**
 * One user's vectors of one kind, as ScopeVectors searches them. Two implementations: `UserVectors`
 * scans every vector (the exact reference, also the fallback of the other), and `IndexedVectors`
 * answers a large set from a persisted graph. test/accelerators.property.test.ts holds the second to
 * the first.
 */
export interface VectorSet {
  readonly size: number;
  /** Whether a search with this k and filter is an exact scan (then its statistics are exact too). */
  scansExactly(k?: number, filter?: VectorFilter): boolean;
  /**
   * The best k by cosine (at most `approximateK` when answered from a graph), with the statistics of
   * every accepted vector when the search scanned them all, else null.
   */
  searchWithStats(
    query: Float32Array,
    k: number,
    filter?: VectorFilter,
    approximateK?: number,
  ): { hits: Hit[]; stats: VectorStats | null };
  /** Whole-set statistics alone; null when they would need a scan the set does not make. */
  stats(query: Float32Array, filter?: VectorFilter): VectorStats | null;
}
