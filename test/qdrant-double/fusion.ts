import { type Ranking, type Scored, sortHits } from "./nearest.js";
import { pointKey } from "./point-id.js";

/** Qdrant's default RRF constant (`qdrant:lib/segment/src/common/reciprocal_rank_fusion.rs`). */
export const DEFAULT_RRF_K = 2;

/** Sum over rankings of 1/((rank+1)/w + k - 1), rank 0-based; a weight ≤ 0 contributes nothing. */
export function reciprocalRankFusion(
  rankings: readonly Ranking[],
  k = DEFAULT_RRF_K,
  weights?: readonly number[],
): Scored[] {
  const fused = new Map<string, Scored>();
  rankings.forEach((ranking, list) => {
    const weight = weights?.[list] ?? 1;
    ranking.hits.forEach((hit, rank) => {
      const contribution = weight <= 0 ? 0 : 1 / ((rank + 1) / weight + k - 1);
      const key = pointKey(hit.point.id);
      const previous = fused.get(key);
      fused.set(key, { point: hit.point, score: (previous?.score ?? 0) + contribution });
    });
  });
  return sortHits([...fused.values()], false);
}

/** Each ranking's scores mapped by mean ± 3σ (sample σ) to about [0, 1], unclipped, then summed. */
export function distributionBasedScoreFusion(rankings: readonly Ranking[]): Scored[] {
  const fused = new Map<string, Scored>();
  for (const ranking of rankings) {
    // Distances are turned around so that bigger is better in every ranking before summing.
    const scores = ranking.hits.map((hit) => (ranking.smallerIsBetter ? -hit.score : hit.score));
    const mean = scores.reduce((sum, score) => sum + score, 0) / Math.max(scores.length, 1);
    const variance =
      scores.length > 1
        ? scores.reduce((sum, score) => sum + (score - mean) ** 2, 0) / (scores.length - 1)
        : 0;
    const low = mean - 3 * Math.sqrt(variance);
    const width = 6 * Math.sqrt(variance);
    ranking.hits.forEach((hit, position) => {
      const normalised = variance === 0 ? 0.5 : ((scores[position] ?? 0) - low) / width;
      const key = pointKey(hit.point.id);
      fused.set(key, { point: hit.point, score: (fused.get(key)?.score ?? 0) + normalised });
    });
  }
  return sortHits([...fused.values()], false);
}
