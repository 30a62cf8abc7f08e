import { Collection, DEFAULT_VECTOR, type DenseParams, type SparseParams } from "./collection.js";
import { type Handler, type HandlerContext, RawResponse } from "./double-state.js";
import { badInput, collectionNotFound, conflict, QdrantError } from "./qdrant-error.js";

interface CreateBody {
  vectors?: DenseParams | Record<string, DenseParams>;
  sparse_vectors?: Record<string, SparseParams>;
}

/** The collection named in the path, or the server's 404. */
export function requireCollection(context: HandlerContext): Collection {
  const name = context.params.collection_name ?? "";
  const collection = context.state.collections.get(name);
  if (!collection) throw collectionNotFound(name);
  return collection;
}

function denseConfig(vectors: CreateBody["vectors"]): Map<string, DenseParams> {
  if (vectors === undefined) return new Map();
  if (typeof (vectors as DenseParams).size === "number")
    return new Map([[DEFAULT_VECTOR, vectors as DenseParams]]);
  return new Map(Object.entries(vectors as Record<string, DenseParams>));
}

function sparseConfig(
  sparse: CreateBody["sparse_vectors"],
  dense: ReadonlyMap<string, DenseParams>,
): Map<string, SparseParams> {
  const config = new Map(Object.entries(sparse ?? {}));
  for (const name of config.keys()) {
    if (name === "")
      throw new QdrantError(
        422,
        "Validation error in JSON body: [sparse_vectors: Sparse vector name cannot be empty]",
      );
    if (dense.has(name))
      throw badInput(`Dense and sparse vector names must be unique - duplicate found with '${name}'`);
  }
  return config;
}

type Placement = { memory?: unknown } | null | undefined;

/** `memory: "pinned"` is refused for dense vector and payload storage (1.19), only quantized data may pin. */
function rejectPinned(vectors: unknown, payload: Placement): void {
  const single = typeof vectors === "object" && vectors !== null && "size" in vectors;
  const list = single ? [vectors as Placement] : Object.values((vectors ?? {}) as Record<string, Placement>);
  if (list.some((params) => params?.memory === "pinned")) {
    throw new QdrantError(
      422,
      "Validation error in JSON body: [vectors.memory: `pinned` is not supported for dense vector storage]",
    );
  }
  if (payload?.memory === "pinned") {
    throw new QdrantError(
      422,
      "Validation error in JSON body: [payload.memory: `pinned` is not supported for payload storage]",
    );
  }
}

const createCollection: Handler = (context) => {
  const name = context.params.collection_name ?? "";
  if (context.state.collections.has(name)) throw conflict(`Collection \`${name}\` already exists!`);
  const body = context.body as CreateBody & { payload?: Placement };
  rejectPinned(body.vectors, body.payload);
  const dense = denseConfig(body.vectors);
  const sparse = sparseConfig(body.sparse_vectors, dense);
  context.state.collections.set(name, new Collection(name, dense, sparse, body as Record<string, unknown>));
  return true;
};

/**
 * `PATCH /collections/{c}`: the body is validated and vector names checked; the tuning it changes
 * (HNSW, optimizers, quantization, memory placement) has no effect on an in-memory double.
 */
const updateCollection: Handler = (context) => {
  const collection = requireCollection(context);
  const body = context.body as {
    vectors?: Record<string, unknown> | null;
    sparse_vectors?: Record<string, unknown> | null;
  };
  for (const name of Object.keys(body.vectors ?? {})) {
    if (!collection.dense.has(name)) throw badInput(`Not existing vector name error: ${name}`);
  }
  for (const name of Object.keys(body.sparse_vectors ?? {})) {
    if (!collection.sparse.has(name)) throw badInput(`Not existing vector name error: ${name}`);
  }
  return true;
};

const deleteCollection: Handler = (context) =>
  context.state.collections.delete(context.params.collection_name ?? "");

const collectionExists: Handler = (context) => ({
  exists: context.state.collections.has(context.params.collection_name ?? ""),
});

const listCollections: Handler = (context) => ({
  collections: [...context.state.collections.keys()].map((name) => ({ name })),
});

function payloadSchema(collection: Collection): Record<string, unknown> {
  const schema: Record<string, unknown> = {};
  for (const [field, index] of collection.payloadIndexes) {
    schema[field] = {
      data_type: index.dataType,
      ...(index.params ? { params: index.params } : {}),
      points: collection.points.size,
    };
  }
  return schema;
}

/** A `CollectionInfo` that validates against the spec; config values are the server's defaults. */
const getCollection: Handler = (context) => {
  const collection = requireCollection(context);
  const body = collection.createBody;
  return {
    status: "green",
    optimizer_status: "ok",
    indexed_vectors_count: 0,
    points_count: collection.points.size,
    segments_count: 1,
    config: {
      params: {
        ...(body.vectors === undefined ? {} : { vectors: body.vectors }),
        ...(body.sparse_vectors === undefined ? {} : { sparse_vectors: body.sparse_vectors }),
        shard_number: 1,
        replication_factor: 1,
        write_consistency_factor: 1,
        on_disk_payload: true,
      },
      hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10000 },
      optimizer_config: { default_segment_number: 0, flush_interval_sec: 5 },
      wal_config: { wal_capacity_mb: 32, wal_segments_ahead: 0 },
      quantization_config: null,
    },
    payload_schema: payloadSchema(collection),
  };
};

const root: Handler = (context) =>
  new RawResponse({ title: "qdrant - vector search engine", version: context.state.version, commit: null });

const health: Handler = () => new RawResponse("healthz check passed", "text/plain");

export const COLLECTION_HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  ["root", root],
  ["healthz", health],
  ["livez", health],
  ["readyz", health],
  ["get_collections", listCollections],
  ["get_collection", getCollection],
  ["create_collection", createCollection],
  ["update_collection", updateCollection],
  ["delete_collection", deleteCollection],
  ["collection_exists", collectionExists],
]);
