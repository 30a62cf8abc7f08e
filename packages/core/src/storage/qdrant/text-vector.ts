import { queryTerms, tokenize } from "../../model/index.js";
import { term } from "../text-terms.js";

/** A Qdrant sparse vector: unique u32 indices with their values. */
export interface SparseVector {
  indices: number[];
  values: number[];
}

/** BM25 constants, as SQLite's FTS5 uses them. */
const K1 = 1.2;
const B = 0.75;

/** FNV-1a (32 bit) of a term: its dimension in the sparse vector. */
export function termIndex(t: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(t, "utf8")) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * A document's sparse vector: per term, BM25's saturated term frequency
 * `tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))`. Qdrant multiplies the query side by the IDF of
 * each term over the collection (`modifier: "idf"`), so the dot product is the document's BM25 score. The
 * average document length is a constant of the store (`avgLength`): BM25 over a corpus whose statistics
 * change would need every document re-weighted.
 */
export function documentVector(text: string, avgLength: number): SparseVector {
  const tokens = tokenize(text);
  const tf = new Map<number, number>();
  for (const token of tokens) {
    const index = termIndex(term(token));
    tf.set(index, (tf.get(index) ?? 0) + 1);
  }
  const norm = K1 * (1 - B + (B * tokens.length) / avgLength);
  const indices = [...tf.keys()].sort((a, b) => a - b);
  const values = indices.map((i) => {
    const f = tf.get(i) as number;
    return (f * (K1 + 1)) / (f + norm);
  });
  return { indices, values };
}

/** A query's sparse vector: each distinct content word (stopwords dropped as in SQLite) with weight 1. */
export function queryVector(text: string): SparseVector | null {
  const indices = [...new Set(queryTerms(text).map((t) => termIndex(term(t))))].sort((a, b) => a - b);
  if (indices.length === 0) return null;
  return { indices, values: indices.map(() => 1) };
}
