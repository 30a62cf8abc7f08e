import { dot } from "../model/index.js";

/** A retrieved candidate for re-ranking: relevance, its embedding, and a boost (e.g. from segment heat). */
export interface RerankCandidate {
  readonly id: string;
  readonly score: number;
  readonly vector: Float32Array | null;
  /** Added to the normalised relevance, in [0, 1] units. */
  readonly boost?: number;
}

export interface RerankOptions {
  /** Keep candidates whose normalised relevance is at least this share of the best one's (0 keeps all). */
  readonly relativeThreshold: number;
  /** MMR trade-off: 1 = relevance only, 0 = diversity only. */
  readonly lambda: number;
  readonly k: number;
}

/**
 * Re-ranks candidates: relevance min-max normalised to [0, 1] plus each boost; a relative threshold drops
 * the weak tail; maximal marginal relevance (Carbonell & Goldstein 1998) then picks k that are relevant
 * and not near-copies of each other (cosine of their embeddings). Returns ids, best first.
 */
export function rerank(candidates: readonly RerankCandidate[], options: RerankOptions): string[] {
  if (candidates.length === 0) return [];
  const scores = candidates.map((c) => c.score);
  const min = Math.min(...scores);
  const range = Math.max(...scores) - min;
  const relevance = candidates.map((c) => (range > 0 ? (c.score - min) / range : 1) + (c.boost ?? 0));
  const best = Math.max(...relevance);
  const pool = candidates
    .map((c, i) => ({ c, rel: relevance[i] as number, redundancy: 0, seen: 0 }))
    .filter((x) => best <= 0 || x.rel >= options.relativeThreshold * best);
  const chosen: typeof pool = [];
  const diversity = 1 - options.lambda;
  const value = (x: (typeof pool)[number]) => options.lambda * x.rel - diversity * x.redundancy;
  while (chosen.length < options.k && pool.length > 0) {
    // Lazy greedy: a candidate's redundancy (its highest cosine to a chosen one) only grows with each pick,
    // so a value computed against fewer picks bounds it from above. Take the best bound (first on ties);
    // if it is stale, compare it with the picks it has not seen and look again. Once the best is current,
    // it is exactly the pick of comparing every candidate every round, at a fraction of the dot products.
    let pick = 0;
    for (;;) {
      let pickValue = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < pool.length; i++) {
        const v = value(pool[i] as (typeof pool)[number]);
        if (v > pickValue) [pick, pickValue] = [i, v];
      }
      const x = pool[pick] as (typeof pool)[number];
      if (x.seen === chosen.length) break;
      if (diversity > 0 && x.c.vector) {
        for (let j = x.seen; j < chosen.length; j++) {
          const other = (chosen[j] as (typeof pool)[number]).c.vector;
          if (other) x.redundancy = Math.max(x.redundancy, dot(x.c.vector, other));
        }
      }
      x.seen = chosen.length;
    }
    chosen.push(...pool.splice(pick, 1));
  }
  return chosen.map((x) => x.c.id);
}
