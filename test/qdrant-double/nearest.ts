import {
  type Collection,
  isSparse,
  prepareDense,
  type SparseVector,
  type StoredPoint,
} from "./collection.js";
import { badInput } from "./qdrant-error.js";

/** A point with its score for one query; `smallerIsBetter` for Euclid/Manhattan distances. */
export interface Scored {
  readonly point: StoredPoint;
  readonly score: number;
}

export interface Ranking {
  readonly hits: Scored[];
  readonly smallerIsBetter: boolean;
}

function dot(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let index = 0; index < a.length; index += 1) sum += (a[index] ?? 0) * (b[index] ?? 0);
  return sum;
}

/**
 * Inverse document frequency as the server's `modifier: "idf"` computes it over the collection:
 * ln(1 + (N - n + 0.5) / (n + 0.5)), N = points having the sparse vector, n = those with the index.
 */
function idfWeights(
  points: Iterable<StoredPoint>,
  name: string,
  indices: readonly number[],
): Map<number, number> {
  let total = 0;
  const frequency = new Map<number, number>(indices.map((index) => [index, 0]));
  for (const point of points) {
    const vector = point.vectors[name];
    if (!vector || !isSparse(vector)) continue;
    total += 1;
    for (const index of vector.indices) {
      const seen = frequency.get(index);
      if (seen !== undefined) frequency.set(index, seen + 1);
    }
  }
  const weights = new Map<number, number>();
  for (const [index, n] of frequency) weights.set(index, Math.log1p((total - n + 0.5) / (n + 0.5)));
  return weights;
}

/** Sparse dot product; undefined when the vectors share no index (such points are no hits). */
function sparseScore(
  query: SparseVector,
  document: SparseVector,
  idf: Map<number, number> | undefined,
): number | undefined {
  const values = new Map<number, number>();
  document.indices.forEach((index, position) => {
    values.set(index, document.values[position] ?? 0);
  });
  let score = 0;
  let overlap = false;
  query.indices.forEach((index, position) => {
    const value = values.get(index);
    if (value === undefined) return;
    overlap = true;
    score += (query.values[position] ?? 0) * value * (idf?.get(index) ?? 1);
  });
  return overlap ? score : undefined;
}

function denseScorer(
  collection: Collection,
  name: string,
  query: unknown,
): { score: (point: StoredPoint) => number | undefined; smallerIsBetter: boolean } {
  const params = collection.dense.get(name);
  if (!params) throw badInput(`Not existing vector name error: ${name}`);
  if (!Array.isArray(query) || isSparse(query))
    throw badInput(`Conversion between sparse and regular vectors failed for vector ${name}`);
  const prepared = prepareDense(params, query as number[]);
  const distance = params.distance;
  const score = (point: StoredPoint): number | undefined => {
    const vector = point.vectors[name];
    if (!vector || isSparse(vector)) return undefined;
    if (distance === "Euclid")
      return Math.sqrt(vector.reduce((sum, value, index) => sum + (value - (prepared[index] ?? 0)) ** 2, 0));
    if (distance === "Manhattan")
      return vector.reduce((sum, value, index) => sum + Math.abs(value - (prepared[index] ?? 0)), 0);
    return dot(vector, prepared);
  };
  return { score, smallerIsBetter: distance === "Euclid" || distance === "Manhattan" };
}

/** Ranks `candidates` (all points passing the filter) by similarity to `query` on vector `name`. */
export function rankNearest(
  collection: Collection,
  name: string,
  query: unknown,
  candidates: readonly StoredPoint[],
): Ranking {
  let scorer: (point: StoredPoint) => number | undefined;
  let smallerIsBetter = false;
  if (collection.sparse.has(name)) {
    if (!isSparse(query))
      throw badInput(`Conversion between sparse and regular vectors failed for vector ${name}`);
    const idf =
      collection.sparse.get(name)?.modifier === "idf"
        ? idfWeights(collection.points.values(), name, query.indices)
        : undefined;
    scorer = (point) => {
      const vector = point.vectors[name];
      return vector && isSparse(vector) ? sparseScore(query, vector, idf) : undefined;
    };
  } else {
    ({ score: scorer, smallerIsBetter } = denseScorer(collection, name, query));
  }
  const hits: Scored[] = [];
  for (const point of candidates) {
    const score = scorer(point);
    if (score !== undefined) hits.push({ point, score });
  }
  return { hits: sortHits(hits, smallerIsBetter), smallerIsBetter };
}

/** Best first; ties by id so the double is deterministic (the server gives no tie order). */
export function sortHits(hits: Scored[], smallerIsBetter: boolean): Scored[] {
  return hits.sort((a, b) => (smallerIsBetter ? a.score - b.score : b.score - a.score) || compareIds(a, b));
}

function compareIds(a: Scored, b: Scored): number {
  const x = a.point.id;
  const y = b.point.id;
  if (typeof x === "number" && typeof y === "number") return x - y;
  if (typeof x === "number") return -1;
  if (typeof y === "number") return 1;
  return x < y ? -1 : x > y ? 1 : 0;
}
