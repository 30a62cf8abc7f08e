import { createRequire } from "node:module";
import type { HierarchicalNSW as Hnsw } from "hnswlib-node";

const require = createRequire(import.meta.url);

/**
 * Graph parameters (hnswlib): M 16, efConstruction 100. Searched with ef = max(128, k), the top 10 of the
 * engine's 256-candidate search matched an exact scan on every query at 10k (docs/benchmarks.md).
 */
const M = 16;
const EF_CONSTRUCTION = 100;
const MIN_EF_SEARCH = 128;

/**
 * An HNSW graph (hnswlib) over one user's vector slots, used when the user's set is too large for an exact
 * scan to stay fast. Inner product on unit vectors is cosine similarity.
 */
export class AnnIndex {
  private readonly index: Hnsw;
  private capacity: number;

  constructor(
    readonly dim: number,
    capacity: number,
  ) {
    const { HierarchicalNSW } = require("hnswlib-node") as typeof import("hnswlib-node");
    this.capacity = Math.max(1024, capacity);
    this.index = new HierarchicalNSW("ip", dim);
    this.index.initIndex({
      maxElements: this.capacity,
      m: M,
      efConstruction: EF_CONSTRUCTION,
      randomSeed: 100,
      allowReplaceDeleted: true,
    });
  }

  /** Adds the vector of a slot, or replaces it (hnswlib updates an existing label in place). */
  set(slot: number, vector: Float32Array): void {
    if (this.index.getCurrentCount() + 1 > this.capacity) {
      this.capacity *= 2;
      this.index.resizeIndex(this.capacity);
    }
    this.index.addPoint(Array.from(vector), slot);
  }

  remove(slot: number): void {
    this.index.markDelete(slot);
  }

  /** The best `k` accepted slots with their cosine, best first. */
  search(query: Float32Array, k: number, accept?: (slot: number) => boolean): Array<[number, number]> {
    this.index.setEf(Math.max(MIN_EF_SEARCH, k));
    const { neighbors, distances } = this.index.searchKnn(Array.from(query), k, accept);
    // hnswlib's "ip" distance is 1 - dot.
    return neighbors.map((slot, i) => [slot, 1 - (distances[i] as number)]);
  }
}
