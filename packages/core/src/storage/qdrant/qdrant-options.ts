import { z } from "zod";
import { parseInput } from "../../model/index.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy.js";

export interface QdrantStorageOptions {
  /** The server's REST URL, e.g. `http://localhost:6333` or `https://xyz.cloud.qdrant.io:6333`. */
  url: string;
  /** Sent as the `api-key` header (Qdrant Cloud, or a server started with `service.api_key`). */
  apiKey?: string;
  /**
   * Prefix of every collection name (default `engram_`): several stores can share one server. Letters,
   * digits, `_` and `-` only.
   */
  collectionPrefix?: string;
  /** Per-request timeout in milliseconds (default 30,000); a timed-out request is retried. */
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
  /** Clock for system times the backend stamps itself (job and key-value times). */
  now?: () => Date;
  /** A fetch implementation (default: the global one), e.g. one that goes through a proxy. */
  fetch?: typeof fetch;
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

const positive = z.number().int().positive().optional();

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

const schema = z.object({
  url: z.url({ error: "expected the Qdrant REST URL, e.g. http://localhost:6333" }),
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
  now: z
    .custom<() => Date>((v) => typeof v === "function", "expected a function returning a Date")
    .optional(),
  fetch: z.custom<typeof fetch>((v) => typeof v === "function", "expected a fetch function").optional(),
});

export interface ResolvedOptions {
  readonly url: string;
  readonly apiKey?: string;
  readonly prefix: string;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly textAvgLength: number;
  readonly vectorStatsLimit: number;
  /** `CreateCollection` fields added to every collection the store creates (snake_case, as sent). */
  readonly collectionSettings: Readonly<Record<string, number | boolean>>;
  readonly now: () => Date;
  readonly fetch?: typeof fetch;
}

export function resolveOptions(options: QdrantStorageOptions): ResolvedOptions {
  const o = parseInput(schema, options, "qdrantStorage");
  return {
    url: o.url,
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
    now: o.now ?? (() => new Date()),
    ...(o.fetch === undefined ? {} : { fetch: o.fetch }),
  };
}

function collectionSettings(c: QdrantCollectionSettings): Record<string, number | boolean> {
  const fields: Record<string, number | boolean | undefined> = {
    shard_number: c.shardNumber,
    replication_factor: c.replicationFactor,
    write_consistency_factor: c.writeConsistencyFactor,
    on_disk_payload: c.onDiskPayload,
  };
  const out: Record<string, number | boolean> = {};
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) out[name] = value;
  return out;
}
