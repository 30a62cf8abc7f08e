import type { Hit, VectorStats } from "../storage-port.js";
import type { VectorAttrs, VectorFilter, VectorSet } from "./vector-set.js";

export interface VectorEntry {
  id: string;
  /** Packed attributes the index can filter on without SQL: kind, tier, expired. */
  kind: string;
  tier: string;
  expired: boolean;
  vector: Float32Array;
}

/** Keeps the `k` best (highest score) entries seen; O(log k) per offer. */
class TopK {
  private readonly scores: number[] = [];
  private readonly slots: number[] = [];
  constructor(private readonly k: number) {}

  offer(slot: number, score: number): void {
    const n = this.scores.length;
    if (n === this.k && score <= (this.scores[n - 1] as number)) return;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.scores[mid] as number) >= score) lo = mid + 1;
      else hi = mid;
    }
    this.scores.splice(lo, 0, score);
    this.slots.splice(lo, 0, slot);
    if (this.scores.length > this.k) {
      this.scores.pop();
      this.slots.pop();
    }
  }

  entries(): Array<[number, number]> {
    return this.slots.map((slot, i) => [slot, this.scores[i] as number]);
  }
}

/** From this many vectors a set of one kind is searched through a persisted index (indexed-vectors.ts). */
export const DEFAULT_ANN_THRESHOLD = 5000;

/** Above this k, search scans exactly: a graph search costs about ef = k, and a large k is no cheaper. */
export const MAX_ANN_CANDIDATES = 256;

/**
 * One user's vectors in one contiguous Float32Array, scanned exactly (cosine of unit vectors = dot
 * product). Updated in place on writes so reads never reload the user from disk. Sets from
 * DEFAULT_ANN_THRESHOLD vectors are searched through an index instead (indexed-vectors.ts).
 */
export class UserVectors implements VectorSet {
  private data: Float32Array;
  private ids: (string | null)[] = [];
  private attrs: { kind: string; tier: string; expired: boolean }[] = [];
  private readonly slotById = new Map<string, number>();
  private dead = 0;
  private expiredLive = 0;

  constructor(readonly dim: number) {
    this.data = new Float32Array(dim * 64);
  }

  get size(): number {
    return this.slotById.size;
  }

  /** Bytes of the vector array, its unused capacity included. */
  get bytes(): number {
    return this.data.byteLength;
  }

  /** Always: this set is scanned exactly (the same question is asked of an indexed set). */
  scansExactly(_k?: number, _filter?: VectorFilter): boolean {
    return true;
  }

  upsert(entry: VectorEntry): void {
    if (entry.vector.length !== this.dim) return;
    let slot = this.slotById.get(entry.id);
    if (slot === undefined) {
      slot = this.ids.length;
      if ((slot + 1) * this.dim > this.data.length) {
        const grown = new Float32Array(this.data.length * 2);
        grown.set(this.data);
        this.data = grown;
      }
      this.ids.push(entry.id);
      this.attrs.push({ kind: entry.kind, tier: entry.tier, expired: entry.expired });
      this.slotById.set(entry.id, slot);
    } else {
      if (this.attrs[slot]?.expired) this.expiredLive--;
      this.attrs[slot] = { kind: entry.kind, tier: entry.tier, expired: entry.expired };
    }
    if (entry.expired) this.expiredLive++;
    this.data.set(entry.vector, slot * this.dim);
  }

  /** A copy of the id's vector, or undefined. */
  vectorOf(id: string): Float32Array | undefined {
    const slot = this.slotById.get(id);
    return slot === undefined ? undefined : this.data.slice(slot * this.dim, (slot + 1) * this.dim);
  }

  remove(id: string): void {
    const slot = this.slotById.get(id);
    if (slot === undefined) return;
    this.slotById.delete(id);
    if (this.attrs[slot]?.expired) this.expiredLive--;
    this.ids[slot] = null;
    this.dead++;
    if (this.dead > 1024 && this.dead > this.ids.length / 4) this.compact();
  }

  search(query: Float32Array, k: number, filter: VectorFilter = {}): Hit[] {
    return this.searchWithStats(query, k, filter).hits;
  }

  /**
   * The top k, and the mean and standard deviation of the cosine over every accepted vector (for score
   * normalisation), from the same scan.
   */
  searchWithStats(
    query: Float32Array,
    k: number,
    filter: VectorFilter = {},
  ): { hits: Hit[]; stats: VectorStats | null } {
    const top = new TopK(k);
    let n = 0;
    let sum = 0;
    let squares = 0;
    this.scan(query, filter, (slot, score) => {
      top.offer(slot, score);
      n++;
      sum += score;
      squares += score * score;
    });
    const hits = top.entries().map(([slot, score]) => ({ id: this.ids[slot] as string, score }));
    if (n === 0) return { hits, stats: null };
    const mean = sum / n;
    return { hits, stats: { mean, sd: Math.sqrt(Math.max(0, squares / n - mean * mean)), count: n } };
  }

  /** Whole-set statistics alone (see searchWithStats). */
  stats(query: Float32Array, filter: VectorFilter = {}): VectorStats | null {
    return this.searchWithStats(query, 1, filter).stats;
  }

  /** The per-slot test a filter needs, or null when every live slot passes. */
  private tester(filter: VectorFilter): ((slot: number) => boolean) | null {
    const { accept, ids } = filter;
    const current = filter.current === true && this.expiredLive > 0;
    if (!accept && !current && !ids) return null;
    const { ids: slotIds, attrs } = this;
    return (slot) => {
      const id = slotIds[slot];
      if (id == null) return false;
      const a = attrs[slot] as VectorAttrs;
      if (current && a.expired) return false;
      if (ids && !ids.has(id)) return false;
      return accept === undefined || accept(a, id);
    };
  }

  /** The wanted ids' slots (id-restricted search), or null to visit every slot. */
  private slotsOf(filter: VectorFilter): number[] | null {
    if (!filter.ids) return null;
    const slots: number[] = [];
    for (const id of filter.ids) {
      const slot = this.slotById.get(id);
      if (slot !== undefined) slots.push(slot);
    }
    return slots;
  }

  /** Exact dot product of the query with every accepted vector. */
  private scan(
    query: Float32Array,
    filter: VectorFilter,
    visit: (slot: number, score: number) => void,
  ): void {
    const { data, dim, ids } = this;
    const only = this.slotsOf(filter);
    // The wanted ids' slots are visited alone: the test need not look the ids up again.
    const test = this.tester(only ? { ...filter, ids: undefined } : filter);
    const count = only ? only.length : ids.length;
    for (let i = 0; i < count; i++) {
      const slot = only ? (only[i] as number) : i;
      if (ids[slot] == null || (test && !test(slot))) continue;
      const base = slot * dim;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let j = 0;
      for (; j + 3 < dim; j += 4) {
        s0 += (data[base + j] as number) * (query[j] as number);
        s1 += (data[base + j + 1] as number) * (query[j + 1] as number);
        s2 += (data[base + j + 2] as number) * (query[j + 2] as number);
        s3 += (data[base + j + 3] as number) * (query[j + 3] as number);
      }
      for (; j < dim; j++) s0 += (data[base + j] as number) * (query[j] as number);
      visit(slot, s0 + s1 + s2 + s3);
    }
  }

  private compact(): void {
    const live = [...this.slotById.entries()];
    const data = new Float32Array(Math.max(64, live.length * 2) * this.dim);
    const ids: string[] = [];
    const attrs: typeof this.attrs = [];
    this.slotById.clear();
    for (const [id, slot] of live) {
      data.set(this.data.subarray(slot * this.dim, (slot + 1) * this.dim), ids.length * this.dim);
      this.slotById.set(id, ids.length);
      attrs.push(this.attrs[slot] as (typeof attrs)[number]);
      ids.push(id);
    }
    this.data = data;
    this.ids = ids;
    this.attrs = attrs;
    this.dead = 0;
  }
}
