import { comparePointIds, type PointId, pointKey } from "./point-id.js";
import { badInput, QdrantError } from "./qdrant-error.js";

export type Distance = "Cosine" | "Euclid" | "Dot" | "Manhattan";
export interface DenseParams {
  readonly size: number;
  readonly distance: Distance;
}
export interface SparseParams {
  readonly modifier?: "idf" | "none";
}
export interface SparseVector {
  readonly indices: readonly number[];
  readonly values: readonly number[];
}
export type StoredVector = readonly number[] | SparseVector;
export type Payload = Record<string, unknown>;

export interface StoredPoint {
  readonly id: PointId;
  vectors: Record<string, StoredVector>;
  payload: Payload;
}

export interface PayloadIndex {
  readonly dataType: string;
  readonly params?: Record<string, unknown>;
}

/** The unnamed (single) dense vector lives under this name, as in the server. */
export const DEFAULT_VECTOR = "";

/** One collection in memory: its vector config, points (by id key) and payload index schema. */
export class Collection {
  readonly points = new Map<string, StoredPoint>();
  readonly payloadIndexes = new Map<string, PayloadIndex>();
  /** Id order, kept until the next insert or delete (scroll pages re-read it on every request). */
  private order: StoredPoint[] | undefined;

  constructor(
    readonly name: string,
    readonly dense: ReadonlyMap<string, DenseParams>,
    readonly sparse: ReadonlyMap<string, SparseParams>,
    /** The create request as sent, for `GET /collections/{name}`. */
    readonly createBody: Record<string, unknown>,
  ) {}

  /** True when the collection was created with a single unnamed vector (`vectors: {size, distance}`). */
  get unnamedVector(): boolean {
    return this.dense.has(DEFAULT_VECTOR);
  }

  get(id: PointId): StoredPoint | undefined {
    return this.points.get(pointKey(id));
  }

  put(point: StoredPoint): void {
    this.points.set(pointKey(point.id), point);
    this.order = undefined;
  }

  delete(id: PointId): void {
    if (this.points.delete(pointKey(id))) this.order = undefined;
  }

  /** Every point in server order (numeric ids first, then UUIDs by bytes). */
  sorted(): readonly StoredPoint[] {
    this.order ??= [...this.points.values()].sort((a, b) => comparePointIds(a.id, b.id));
    return this.order;
  }

  /** The vector name a query or a point refers to; throws the server's error for an unknown one. */
  requireVectorName(name: string | undefined): string {
    const resolved = name ?? DEFAULT_VECTOR;
    if (this.dense.has(resolved) || this.sparse.has(resolved)) return resolved;
    if (resolved === DEFAULT_VECTOR) throw badInput("Not existing vector name error: ");
    throw badInput(`Not existing vector name error: ${resolved}`);
  }
}

export function isSparse(vector: unknown): vector is SparseVector {
  return typeof vector === "object" && vector !== null && !Array.isArray(vector) && "indices" in vector;
}

function normalise(vector: readonly number[]): number[] {
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  // Like the server, a zero vector stays as it is rather than becoming NaN.
  return norm === 0 ? [...vector] : vector.map((value) => value / norm);
}

/** Checks a dense vector against its config; Cosine vectors are stored unit-length, as the server does. */
export function prepareDense(params: DenseParams, vector: readonly number[]): number[] {
  if (vector.length === 0)
    throw new QdrantError(422, "Validation error in JSON body: [dense vector must not be empty]");
  if (vector.length !== params.size) {
    throw badInput(`Vector dimension error: expected dim: ${params.size}, got ${vector.length}`);
  }
  return params.distance === "Cosine" ? normalise(vector) : [...vector];
}

/** Checks a sparse vector (unique indices, equal lengths) and stores it sorted by index. */
export function prepareSparse(vector: SparseVector): SparseVector {
  if (vector.indices.length !== vector.values.length) {
    throw new QdrantError(
      422,
      "Validation error in JSON body: [vector.values: Validation error: must be the same length as indices [{}]]",
    );
  }
  if (new Set(vector.indices).size !== vector.indices.length) {
    throw new QdrantError(
      422,
      "Validation error in JSON body: [vector.indices: Validation error: must be unique [{}]]",
    );
  }
  const order = vector.indices
    .map((_, position) => position)
    .sort((a, b) => (vector.indices[a] ?? 0) - (vector.indices[b] ?? 0));
  return {
    indices: order.map((position) => vector.indices[position] ?? 0),
    values: order.map((position) => vector.values[position] ?? 0),
  };
}
