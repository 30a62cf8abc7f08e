import { normalize } from "../model/index.js";

/**
 * Pseudo-relevance feedback in the vector space (Rocchio 1971): the query vector moved toward the mean of
 * the best hits' vectors, so a second search reaches turns about the same thing that share no words with
 * the query. Returns `query + weight * mean(hits)`, normalised to unit length.
 */
export function rocchio(query: Float32Array, hits: Float32Array[], weight: number): Float32Array {
  const out = Float32Array.from(query);
  for (const v of hits)
    for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) + (weight * (v[i] ?? 0)) / hits.length;
  return normalize(out);
}
