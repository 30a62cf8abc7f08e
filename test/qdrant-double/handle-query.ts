import { type Collection, isSparse, type StoredPoint } from "./collection.js";
import type { Handler } from "./double-state.js";
import { type Filter, matchesFilter } from "./filter.js";
import { DEFAULT_RRF_K, distributionBasedScoreFusion, reciprocalRankFusion } from "./fusion.js";
import { requireCollection } from "./handle-collections.js";
import { type Ranking, rankNearest, type Scored } from "./nearest.js";
import { normalizePointId, type PointId, pointKey } from "./point-id.js";
import { selectPayload, selectVectors, type WithPayload, type WithVector } from "./point-output.js";
import { badRequest, pointNotFound, QdrantError } from "./qdrant-error.js";

interface QueryStep {
  prefetch?: QueryStep | QueryStep[] | null;
  query?: unknown;
  using?: string | null;
  filter?: Filter | null;
  score_threshold?: number | null;
  limit?: number | null;
}
interface QueryBody extends QueryStep {
  offset?: number | null;
  with_payload?: WithPayload;
  with_vector?: WithVector;
}

const DEFAULT_LIMIT = 10;
const asList = <T>(value: T | T[] | null | undefined): T[] =>
  value == null ? [] : Array.isArray(value) ? value : [value];
const both = (outer: Filter | undefined, inner: Filter | null | undefined): Filter | undefined =>
  outer && inner
    ? { must: [outer as Record<string, unknown>, inner as Record<string, unknown>] }
    : (outer ?? inner ?? undefined);

type Fusion = { kind: "rrf"; k: number; weights?: number[] } | { kind: "dbsf" };

function fusionOf(query: unknown): Fusion | undefined {
  if (typeof query !== "object" || query === null || Array.isArray(query)) return undefined;
  const record = query as Record<string, unknown>;
  if (record.fusion === "rrf") return { kind: "rrf", k: DEFAULT_RRF_K };
  if (record.fusion === "dbsf") return { kind: "dbsf" };
  if ("rrf" in record) {
    const rrf = (record.rrf ?? {}) as { k?: number | null; weights?: number[] | null };
    return { kind: "rrf", k: rrf.k ?? DEFAULT_RRF_K, ...(rrf.weights ? { weights: rrf.weights } : {}) };
  }
  return undefined;
}

/** The vector a nearest query searches with; a point id stands for that point's vector. */
function vectorOf(
  collection: Collection,
  query: unknown,
  name: string,
): { vector: unknown; exclude?: PointId } {
  const input =
    typeof query === "object" && query !== null && "nearest" in query
      ? (query as { nearest: unknown }).nearest
      : query;
  if (Array.isArray(input) || isSparse(input)) return { vector: input };
  if (typeof input === "number" || typeof input === "string") {
    const id = normalizePointId(input);
    const point = collection.get(id);
    if (!point) throw pointNotFound(id);
    const vector = point.vectors[name];
    if (vector === undefined) throw badRequest(`Vector ${name} not found in point ${id}`);
    return { vector, exclude: id };
  }
  const kind = typeof input === "object" && input !== null ? Object.keys(input).join(",") : typeof input;
  throw new QdrantError(501, `Not implemented by the Qdrant double: query of kind ${kind}`);
}

function byId(points: StoredPoint[]): Ranking {
  return { hits: points.map((point) => ({ point, score: 0 })), smallerIsBetter: false };
}

function withThreshold(ranking: Ranking, threshold: number | null | undefined): Ranking {
  if (threshold == null) return ranking;
  const keep = (hit: Scored) => (ranking.smallerIsBetter ? hit.score <= threshold : hit.score >= threshold);
  return { hits: ranking.hits.filter(keep), smallerIsBetter: ranking.smallerIsBetter };
}

/** One level of the query tree: prefetches first (with the filters above them), then this step's query. */
function runStep(
  collection: Collection,
  step: QueryStep,
  inherited: Filter | undefined,
  limit: number,
): Ranking {
  const filter = both(inherited, step.filter);
  const prefetches = asList(step.prefetch);
  if (step.query == null) {
    if (prefetches.length > 0)
      throw badRequest(
        "A query is needed to merge the prefetches. Can't have prefetches without defining a query.",
      );
    if (step.score_threshold != null)
      throw badRequest(
        "A query is needed to use the score_threshold. Can't have score_threshold without defining a query.",
      );
    return byId(
      collection
        .sorted()
        .filter((point) => !filter || matchesFilter(filter, point))
        .slice(0, limit),
    );
  }
  const fusion = fusionOf(step.query);
  const sources = prefetches.map((prefetch) =>
    runStep(collection, prefetch, filter, prefetch.limit ?? DEFAULT_LIMIT),
  );
  let ranking: Ranking;
  if (fusion) {
    if (step.using != null) throw badRequest("Fusion queries cannot be combined with the 'using' field.");
    if (fusion.kind === "rrf" && fusion.weights && fusion.weights.length !== sources.length) {
      throw badRequest(
        `Number of weights (${fusion.weights.length}) must match the number of prefetches (${sources.length})`,
      );
    }
    const hits =
      fusion.kind === "rrf"
        ? reciprocalRankFusion(sources, fusion.k, fusion.weights)
        : distributionBasedScoreFusion(sources);
    ranking = { hits, smallerIsBetter: false };
  } else {
    const name = collection.requireVectorName(step.using ?? undefined);
    const { vector, exclude } = vectorOf(collection, step.query, name);
    // Unsorted is fine: rankNearest orders hits, ties by id.
    const candidates =
      prefetches.length > 0
        ? unionOf(sources)
        : [...collection.points.values()].filter((point) => matchesFilter(filter, point));
    const allowed =
      exclude === undefined
        ? candidates
        : candidates.filter((point) => pointKey(point.id) !== pointKey(exclude));
    ranking = rankNearest(collection, name, vector, allowed);
  }
  const kept = withThreshold(ranking, step.score_threshold);
  return { hits: kept.hits.slice(0, limit), smallerIsBetter: kept.smallerIsBetter };
}

function unionOf(rankings: readonly Ranking[]): StoredPoint[] {
  const points = new Map<string, StoredPoint>();
  for (const ranking of rankings)
    for (const hit of ranking.hits) points.set(pointKey(hit.point.id), hit.point);
  return [...points.values()];
}

function toScoredPoint(collection: Collection, hit: Scored, body: QueryBody): Record<string, unknown> {
  const payload = selectPayload(hit.point.payload, body.with_payload, false);
  const vector = selectVectors(collection, hit.point, body.with_vector);
  return {
    id: hit.point.id,
    version: 0,
    score: hit.score,
    ...(payload === undefined ? {} : { payload }),
    ...(vector === undefined ? {} : { vector }),
  };
}

/** `offset` applies to the top level only; prefetch limits are the prefetches' own. */
export function runQuery(collection: Collection, body: QueryBody): Record<string, unknown>[] {
  const offset = body.offset ?? 0;
  const ranking = runStep(collection, body, undefined, (body.limit ?? DEFAULT_LIMIT) + offset);
  return ranking.hits.slice(offset).map((hit) => toScoredPoint(collection, hit, body));
}

const queryPoints: Handler = (context) => ({
  points: runQuery(requireCollection(context), context.body as QueryBody),
});

const queryBatch: Handler = (context) => {
  const collection = requireCollection(context);
  const body = context.body as { searches: QueryBody[] };
  return body.searches.map((search) => ({ points: runQuery(collection, search) }));
};

export const QUERY_HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  ["query_points", queryPoints],
  ["query_batch_points", queryBatch],
]);
