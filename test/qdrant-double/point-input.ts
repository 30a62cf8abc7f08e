import {
  type Collection,
  DEFAULT_VECTOR,
  isSparse,
  type Payload,
  prepareDense,
  prepareSparse,
  type SparseVector,
  type StoredPoint,
  type StoredVector,
} from "./collection.js";
import { normalizePointId } from "./point-id.js";
import { badInput, QdrantError } from "./qdrant-error.js";

const unsupported = (what: string): QdrantError =>
  new QdrantError(501, `Not implemented by the Qdrant double: ${what}`);

/** Document / Image / InferenceObject: `{text|image|object, model}`, embedded by the server. */
const isInference = (input: unknown): boolean =>
  typeof input === "object" &&
  input !== null &&
  "model" in input &&
  ("text" in input || "image" in input || "object" in input);

function prepareOne(collection: Collection, name: string, input: unknown): StoredVector {
  const dense = collection.dense.get(name);
  if (dense) {
    if (!Array.isArray(input))
      throw badInput(`Conversion between sparse and regular vectors failed for vector ${name}`);
    if (input.some((value) => Array.isArray(value))) throw unsupported("multivectors");
    return prepareDense(dense, input as number[]);
  }
  if (isInference(input)) throw unsupported("server-side inference (Document/Image/InferenceObject vectors)");
  if (collection.sparse.has(name)) {
    if (!isSparse(input))
      throw badInput(`Conversion between sparse and regular vectors failed for vector ${name}`);
    return prepareSparse(input as SparseVector);
  }
  throw badInput(`Not existing vector name error: ${name}`);
}

/** A point's `vector` field (one array, or named vectors) checked and prepared for storage. */
export function prepareVectors(collection: Collection, input: unknown): Record<string, StoredVector> {
  if (input === undefined || input === null) return {};
  if (Array.isArray(input)) {
    if (input.some((value) => Array.isArray(value))) throw unsupported("multivectors");
    return { [DEFAULT_VECTOR]: prepareOne(collection, DEFAULT_VECTOR, input) };
  }
  if (isInference(input)) throw unsupported("server-side inference (Document/Image/InferenceObject vectors)");
  const vectors: Record<string, StoredVector> = {};
  for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
    vectors[name] = prepareOne(collection, name, value);
  }
  return vectors;
}

interface PointStructInput {
  id: unknown;
  vector?: unknown;
  payload?: Payload | null;
}
interface BatchInput {
  ids: unknown[];
  vectors?: unknown[] | Record<string, unknown[]>;
  payloads?: (Payload | null)[] | null;
}

function batchVector(vectors: BatchInput["vectors"], position: number): unknown {
  if (vectors === undefined) return undefined;
  if (Array.isArray(vectors)) return vectors[position];
  return Object.fromEntries(Object.entries(vectors).map(([name, column]) => [name, column[position]]));
}

/** The points of an upsert body (`{points}` or `{batch}`), all checked before any is stored. */
export function pointsToUpsert(
  collection: Collection,
  body: { points?: unknown[]; batch?: BatchInput },
): StoredPoint[] {
  if (body.points) {
    return (body.points as PointStructInput[]).map((point) => ({
      id: normalizePointId(point.id),
      vectors: prepareVectors(collection, point.vector),
      payload: structuredClone(point.payload ?? {}),
    }));
  }
  const batch = body.batch as BatchInput;
  return batch.ids.map((id, position) => ({
    id: normalizePointId(id),
    vectors: prepareVectors(collection, batchVector(batch.vectors, position)),
    payload: structuredClone(batch.payloads?.[position] ?? {}),
  }));
}
