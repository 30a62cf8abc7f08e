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

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length && i < b.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
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
    .map((c, i) => ({ c, rel: relevance[i] as number, redundancy: 0 }))
    .filter((x) => best <= 0 || x.rel >= options.relativeThreshold * best);
  const chosen: typeof pool = [];
  while (chosen.length < options.k && pool.length > 0) {
    let pick = 0;
    let pickValue = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < pool.length; i++) {
      const x = pool[i] as (typeof pool)[number];
      const value = options.lambda * x.rel - (1 - options.lambda) * x.redundancy;
      if (value > pickValue) [pick, pickValue] = [i, value];
    }
    const [picked] = pool.splice(pick, 1) as [(typeof pool)[number]];
    chosen.push(picked);
    // Each remaining candidate's redundancy is its highest cosine to any chosen one: update it with the
    // new pick only, instead of comparing against every chosen candidate again next round.
    for (const x of pool) {
      if (x.c.vector && picked.c.vector)
        x.redundancy = Math.max(x.redundancy, dot(x.c.vector, picked.c.vector));
    }
  }
  return chosen.map((x) => x.c.id);
}
