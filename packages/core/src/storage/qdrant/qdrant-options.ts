import type { QdrantClient } from "@qdrant/js-client-rest";
import { z } from "zod";
import { parseInput } from "../../model/index.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy.js";

export interface QdrantStorageOptions {
  /**
   * The server's REST URL, used as given, e.g. `http://localhost:6333` or `https://xyz.cloud.qdrant.io:6333`.
   * Either this or `client`.
   */
  url?: string;
  /** Sent as the `api-key` header (Qdrant Cloud, or a server started with `service.api_key`). Only with `url`. */
  apiKey?: string;
  /**
   * Your own configured client of `@qdrant/js-client-rest` (API key, TLS, headers, cloud URL, connection
   * pool), instead of `url`: every request goes through it, wrapped in the backend's retries. Its own
   * `timeout` applies.
   */
  client?: QdrantClient;
  /**
   * Prefix of every collection name (default `engram_`): several stores can share one server. Letters,
   * digits, `_` and `-` only.
   */
  collectionPrefix?: string;
  /** Per-request timeout in milliseconds (default 30,000); a timed-out request is retried. Only with `url`. */
  timeoutMs?: number;
  /** Resends of a failed request on 408, 429, 5xx, timeouts and connection errors (default 5). */
  retries?: number;
  /** Back-off before the first resend in milliseconds (default 100); doubles up to `maxDelayMs`. */
  baseDelayMs?: number;
  /** Cap of the back-off in milliseconds (default 5,000). */
  maxDelayMs?: number;
  /**
   * BM25's average document length in tokens for full-text weights (default 43: what a dialogue turn with
   * the turn before it, mixed with shorter summaries, averages on LoCoMo). Fixed per store: changing it
   * only affects memories written afterwards.
   */
  textAvgLength?: number;
  /**
   * Largest filtered set whose similarity statistics `vectorStats` computes exactly (default 5,000, where
   * the SQLite backend switches to an approximate index); above it the engine normalises over top hits.
   */
  vectorStatsLimit?: number;
  /**
   * Cluster settings sent in every collection the store creates (ignored for collections that already
   * exist: Qdrant fixes the shard count at creation). Omitted fields take the server's defaults.
   */
  collections?: QdrantCollectionSettings;
  /**
   * How the vector collections the store creates keep their vectors: on disk, quantized, the HNSW graph's
   * shape (see docs/qdrant.md, "Vectors at 10 and 100 million memories"). Omitted fields take the server's defaults.
   */
  vectors?: QdrantVectorSettings;
  /** Clock for system times the backend stamps itself (job and key-value times). */
  now?: () => Date;
}

/** Qdrant's `CreateCollection` settings for a cluster (see docs/qdrant.md, "Sizing"). */
export interface QdrantCollectionSettings {
  /** `shard_number`: shards per collection (server default: the node count; fixed after creation). */
  shardNumber?: number;
  /** `replication_factor`: copies of each shard (server default 1). */
  replicationFactor?: number;
  /** `write_consistency_factor`: replicas that must apply a write (server default 1; at most the replicas). */
  writeConsistencyFactor?: number;
  /** `on_disk_payload`: keep payloads on disk, indexed fields stay in memory (server default true). */
  onDiskPayload?: boolean;
}

/** Qdrant's vector storage settings for the vector collections (`vectors`, `hnsw_config`, `quantization_config`). */
export interface QdrantVectorSettings {
  /** `on_disk`: the original vectors on disk (memory-mapped), read through the page cache. */
  onDisk?: boolean;
  /**
   * `quantization_config.scalar`: an int8 copy of each vector (a quarter of the float32 size) searched
   * first, the candidates rescored with the originals. `alwaysRam` keeps the copy in memory when the
   * originals are on disk; `quantile` (0.5 to 1) bounds the range the int8 values cover.
   */
  quantization?: { type: "int8"; quantile?: number; alwaysRam?: boolean };
  /** `hnsw_config`: the graph's links per node (`m`), per tenant (`payloadM`), build effort, on disk. */
  hnsw?: { m?: number; payloadM?: number; efConstruct?: number; onDisk?: boolean };
}

const positive = z.number().int().positive().optional();

const vectorsSchema = z
  .object({
    onDisk: z.boolean().optional(),
    quantization: z
      .object({
        type: z.literal("int8"),
        quantile: z.number().min(0.5).max(1).optional(),
        alwaysRam: z.boolean().optional(),
      })
      .strict()
      .optional(),
    hnsw: z
      .object({
        m: z.number().int().min(0).max(256).optional(),
        payloadM: z.number().int().min(0).max(256).optional(),
        efConstruct: z.number().int().min(4).max(4096).optional(),
        onDisk: z.boolean().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

const collectionsSchema = z
  .object({
    shardNumber: positive,
    replicationFactor: positive,
    writeConsistencyFactor: positive,
    onDiskPayload: z.boolean().optional(),
  })
  .strict()
  .refine(
    (c) => c.writeConsistencyFactor === undefined || c.writeConsistencyFactor <= (c.replicationFactor ?? 1),
    {
      error:
        "writeConsistencyFactor must not exceed replicationFactor (default 1): a write would never succeed",
      path: ["writeConsistencyFactor"],
    },
  );

/** The official client, recognised by the methods the backend calls. */
const isClient = (v: unknown): v is QdrantClient =>
  typeof v === "object" &&
  v !== null &&
  ["versionInfo", "batchUpdate", "scroll", "query", "count", "getCollections"].every(
    (m) => typeof (v as Record<string, unknown>)[m] === "function",
  );

const schema = z
  .object({
    url: z.url({ error: "expected the Qdrant REST URL, e.g. http://localhost:6333" }).optional(),
    client: z.custom<QdrantClient>(isClient, "expected a QdrantClient of @qdrant/js-client-rest").optional(),
    apiKey: z.string().min(1, "must not be empty; omit it when the server needs no key").optional(),
    collectionPrefix: z
      .string()
      .max(64)
      .regex(/^[A-Za-z0-9_-]*$/, "use letters, digits, '_' and '-' only")
      .optional(),
    timeoutMs: z.number().int().positive().optional(),
    retries: z.number().int().min(0).max(100).optional(),
    baseDelayMs: z.number().nonnegative().optional(),
    maxDelayMs: z.number().nonnegative().optional(),
    textAvgLength: z.number().positive().optional(),
    vectorStatsLimit: z.number().int().min(0).optional(),
    collections: collectionsSchema.optional(),
    vectors: vectorsSchema.optional(),
    now: z
      .custom<() => Date>((v) => typeof v === "function", "expected a function returning a Date")
      .optional(),
  })
  .strict()
  .superRefine((o, ctx) => {
    if ((o.url === undefined) === (o.client === undefined))
      ctx.addIssue({
        code: "custom",
        path: o.url === undefined ? ["url"] : ["client"],
        message:
          o.url === undefined
            ? "pass the server's url, or your own QdrantClient as client"
            : "pass either url or client, not both",
      });
    if (o.client !== undefined)
      for (const key of ["apiKey", "timeoutMs"] as const)
        if (o[key] !== undefined)
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: `configure ${key} on your QdrantClient: it applies only with url`,
          });
  });

export interface ResolvedOptions {
  /** The server's URL, or null when the user gave a client. */
  readonly url: string | null;
  readonly client?: QdrantClient;
  readonly apiKey?: string;
  readonly prefix: string;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly textAvgLength: number;
  readonly vectorStatsLimit: number;
  /** `CreateCollection` fields added to every collection the store creates (snake_case, as sent). */
  readonly collectionSettings: Readonly<Record<string, number | boolean>>;
  /** How a vector collection is created: fields of its dense vector's params, and collection fields. */
  readonly vectorSettings: VectorCollectionConfig;
  readonly now: () => Date;
}

export function resolveOptions(options: QdrantStorageOptions): ResolvedOptions {
  const o = parseInput(schema, options, "qdrantStorage");
  return {
    url: o.url ?? null,
    ...(o.client === undefined ? {} : { client: o.client }),
    ...(o.apiKey === undefined ? {} : { apiKey: o.apiKey }),
    prefix: o.collectionPrefix ?? "engram_",
    timeoutMs: o.timeoutMs ?? 30_000,
    retry: {
      ...DEFAULT_RETRY_POLICY,
      retries: o.retries ?? DEFAULT_RETRY_POLICY.retries,
      baseDelayMs: o.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
      maxDelayMs: o.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
    },
    textAvgLength: o.textAvgLength ?? 43,
    vectorStatsLimit: o.vectorStatsLimit ?? 5_000,
    collectionSettings: collectionSettings(o.collections ?? {}),
    vectorSettings: vectorSettings(o.vectors ?? {}),
    now: o.now ?? (() => new Date()),
  };
}

/** The dense vector's own params (`on_disk`) and the collection-level configs, as sent. */
export interface VectorCollectionConfig {
  readonly dense: Readonly<Record<string, boolean>>;
  readonly collection: Readonly<Record<string, unknown>>;
}

function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

function vectorSettings(v: QdrantVectorSettings): VectorCollectionConfig {
  const hnsw = v.hnsw
    ? defined({
        m: v.hnsw.m,
        payload_m: v.hnsw.payloadM,
        ef_construct: v.hnsw.efConstruct,
        on_disk: v.hnsw.onDisk,
      })
    : {};
  const scalar = v.quantization
    ? defined({ type: "int8", quantile: v.quantization.quantile, always_ram: v.quantization.alwaysRam })
    : null;
  return {
    dense: v.onDisk === undefined ? {} : { on_disk: v.onDisk },
    collection: {
      ...(Object.keys(hnsw).length ? { hnsw_config: hnsw } : {}),
      ...(scalar ? { quantization_config: { scalar } } : {}),
    },
  };
}

function collectionSettings(c: QdrantCollectionSettings): Record<string, number | boolean> {
  return defined({
    shard_number: c.shardNumber,
    replication_factor: c.replicationFactor,
    write_consistency_factor: c.writeConsistencyFactor,
    on_disk_payload: c.onDiskPayload,
  }) as Record<string, number | boolean>;
}
