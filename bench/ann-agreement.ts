import type { Engram } from "@engram/core";
import { storageOf } from "@engram/core/testing";

export interface AnnAgreement {
  readonly queries: number;
  /** Share of the exact top 10 that a k = 10 search returns. */
  readonly top10AtK10: number;
  /** The engine's vector candidates: what hybrid search asks the vector channel for. */
  readonly k: number;
  /** Share of the exact top 10 among the first 10 of a search for `k`. */
  readonly top10AtK: number;
  /** Share of the exact top `k` that a search for `k` returns. */
  readonly topKAtK: number;
}

/** Exact top-k ids by dot product (cosine of unit vectors), independent of the engine's own scan. */
export function exactTopK(
  ids: readonly string[],
  vectors: readonly Float32Array[],
  query: Float32Array,
  k: number,
): string[] {
  const scores = new Float64Array(vectors.length);
  for (const [i, v] of vectors.entries()) {
    let s = 0;
    for (let j = 0; j < v.length; j++) s += (v[j] as number) * (query[j] as number);
    scores[i] = s;
  }
  const order = Array.from({ length: vectors.length }, (_, i) => i);
  order.sort((a, b) => (scores[b] as number) - (scores[a] as number));
  return order.slice(0, k).map((i) => ids[i] as string);
}

function overlap(found: readonly string[], truth: readonly string[]): number {
  const want = new Set(truth);
  return found.filter((id) => want.has(id)).length / Math.max(1, truth.length);
}

const mean = (xs: readonly number[]): number =>
  Number((xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length)).toFixed(4));

/**
 * How closely the store's vector channel (a persisted HNSW index from 5,000 vectors of a kind, an exact scan
 * below) matches an exact search over the same vectors.
 */
export async function annAgreement(options: {
  engram: Engram;
  userId: string;
  ids: readonly string[];
  vectors: readonly Float32Array[];
  queries: readonly Float32Array[];
  k: number;
}): Promise<AnnAgreement> {
  const { engram, userId, ids, vectors, queries, k } = options;
  const scope = { userId };
  const at10: number[] = [];
  const atKTop10: number[] = [];
  const wide: number[] = [];
  for (const vector of queries) {
    const truth = exactTopK(ids, vectors, vector, k);
    const top10 = truth.slice(0, 10);
    const k10 = (await storageOf(engram).vectorSearch(scope, { vector, k: 10 })).map((h) => h.id);
    const atK = (await storageOf(engram).vectorSearch(scope, { vector, k })).map((h) => h.id);
    at10.push(overlap(k10, top10));
    atKTop10.push(overlap(atK.slice(0, 10), top10));
    wide.push(overlap(atK, truth));
  }
  return {
    queries: queries.length,
    top10AtK10: mean(at10),
    k,
    top10AtK: mean(atKTop10),
    topKAtK: mean(wide),
  };
}
