import type {
  Cube,
  EdgeType,
  MemoryEdge,
  MemoryKind,
  MemoryRecord,
  MemoryVersion,
  Role,
  Scope,
  StoredMemory,
  Tier,
} from "../model/index.js";
import type { MetadataFilter } from "./metadata-filter.js";

/** Restricts which memories of the scope's user a read sees. Every field narrows; all are optional. */
export interface MemoryFilter {
  readonly ids?: readonly string[];
  readonly kinds?: readonly MemoryKind[];
  readonly tiers?: readonly Tier[];
  readonly roles?: readonly Role[];
  /** Read from these cubes only (composition of several cubes the caller may read). */
  readonly cubes?: readonly Cube[];
  readonly agentId?: string;
  /** A session id, or null for memories stored without one. */
  readonly sessionId?: string | null;
  readonly key?: string;
  /** `true`: only memories not superseded (expiredAt null). */
  readonly current?: boolean;
  /** Point in time (ISO): memories known by then and not yet expired then. */
  readonly at?: string;
  /** Event-time window on validFrom (ISO, inclusive). */
  readonly from?: string;
  readonly to?: string;
  /** Conditions on top-level metadata fields (equality, `$ne`, `$in`, `$nin`, numeric ranges). */
  readonly metadata?: MetadataFilter;
}

export interface ScanOptions {
  readonly filter?: MemoryFilter;
  readonly limit?: number;
  readonly offset?: number;
  /** Order by event time (validFrom, then createdAt): oldest first unless `desc`. */
  readonly order?: "asc" | "desc";
}

/** One ranked candidate from a search channel; higher score is better. */
export interface Hit {
  readonly id: string;
  readonly score: number;
}

export interface EdgeQuery {
  readonly from?: string;
  readonly to?: string | readonly string[];
  readonly type?: EdgeType;
}

export interface TextQuery {
  readonly text: string;
  readonly k: number;
  readonly filter?: MemoryFilter;
  /**
   * For a backend with `textStats`: the statistics describe the best `statsOver` matches (default k),
   * which may be more than the k hits listed.
   */
  readonly statsOver?: number;
}

export interface VectorQuery {
  readonly vector: Float32Array;
  readonly k: number;
  readonly filter?: MemoryFilter;
  /**
   * For a backend that answers the query from an approximate index (SQLite's HNSW graph over a large
   * kind): list at most this many candidates, as its search costs about as much as it lists. An exact
   * scan lists k. Backends without such an index ignore it.
   */
  readonly approximateK?: number;
}

/** Distribution of a channel's scores over the whole scope. */
export interface VectorStats {
  readonly mean: number;
  readonly sd: number;
  readonly count: number;
}

/**
 * A full-text query's score statistics over its best `k` matches (before filtering), for the fusion:
 * `floor` is the lowest of those scores, given to candidates the channel did not list.
 */
export interface TextStats extends VectorStats {
  readonly floor: number;
}

/** A key-value entry (LangGraph checkpoints and writes); namespaced per user. */
export interface KvEntry {
  readonly namespace: readonly string[];
  readonly key: string;
  readonly value: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export type KvPut = Omit<KvEntry, "createdAt" | "updatedAt"> & {
  readonly createdAt?: string;
  readonly updatedAt?: string;
};

export interface KvListOptions {
  /** Entries whose namespace starts with these parts. */
  readonly prefix?: readonly string[];
  readonly limit?: number;
  readonly offset?: number;
}

export const JOB_STATUSES = ["queued", "running", "done", "failed"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface NewJob {
  readonly id: string;
  readonly type: string;
  readonly payload: Record<string, unknown>;
  /** Jobs with the same dedupe key for one user collapse into the first still queued. */
  readonly dedupeKey?: string;
  readonly runAt: string;
  /** Set by an import only: the state the job had where it was exported (default a new queued job). */
  readonly restore?: RestoredJobState;
}

/** A job's state carried by an export: queued or failed, with its attempts, last error and times. */
export interface RestoredJobState {
  readonly status: "queued" | "failed";
  readonly attempts: number;
  readonly lastError: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface Job extends NewJob {
  readonly userId: string;
  readonly status: JobStatus;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly leaseUntil: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface ClaimOptions {
  readonly now: string;
  readonly limit: number;
  readonly leaseMs: number;
  readonly types?: readonly string[];
}

/** One atomic unit of change for one user: all of it is stored, or none of it. */
export interface WriteBatch {
  readonly upsert?: readonly StoredMemory[];
  /**
   * Stored only where no memory has the id yet: a memory of the scope's user already stored under it is
   * left exactly as it is, and the batch's history rows for it are dropped (a repeated import stores
   * nothing twice). Another user's id is refused, as for `upsert`.
   */
  readonly insert?: readonly StoredMemory[];
  readonly history?: readonly MemoryVersion[];
  readonly edges?: readonly MemoryEdge[];
  /** Removes these memories with their vectors, history and edges. */
  readonly deleteIds?: readonly string[];
  readonly jobs?: readonly NewJob[];
  /** Times are set by the store, unless given (an import restores the exported ones). */
  readonly kvPut?: readonly KvPut[];
  readonly kvDelete?: readonly { readonly namespace: readonly string[]; readonly key: string }[];
  /**
   * The text this batch deletes or rewrites is only derived from other stored memories (segment
   * summaries moved by tier work), so a backend may leave the old terms in its full-text index until it
   * next merges it instead of erasing them at once, which costs several times more. Text a user deletes
   * or edits is erased at once; `forget` erases everything of the user either way.
   */
  readonly derivedText?: boolean;
  /**
   * Makes the batch conditional (compare-and-set): each record is a memory as the writer read it, and the
   * batch is stored only while every one of them is still stored exactly so (every field equal). When one
   * was changed or removed meanwhile (another process's job, another writer), nothing of the batch is
   * stored and `WriteResult.conflicts` names them; the writer reads again and redoes its work, or gives
   * way. A job that reads whole records and writes them back sets it, so it never writes a stale copy
   * over a newer one (a `pending` status over the `ready` another job just stored).
   */
  readonly expect?: readonly MemoryRecord[];
}

/** What a write did that its caller could not know beforehand. */
export interface WriteResult {
  /** Ids of the batch's `insert` records actually stored (not those found stored already), in batch order. */
  readonly inserted: readonly string[];
  /**
   * Ids of the batch's `expect` records no longer stored as given: when any, the batch was not stored.
   * (Qdrant has no transactions: a change that lands between its check and its write keeps that record
   * as the other writer left it, and may let the rest of the batch through; the id is listed all the same.)
   */
  readonly conflicts: readonly string[];
}

/** The rows a forget removed, by kind. */
export interface ForgetCounts {
  readonly memories: number;
  readonly history: number;
  readonly edges: number;
  readonly kv: number;
  readonly jobs: number;
}

/**
 * Whether the bytes of forgotten users are gone from the store's files. Every read stops seeing a
 * forgotten user at once; the bytes may outlive the rows:
 * - `erased`: no byte of any forgotten user is left in the database, its write-ahead log or index files.
 * - `pending`: some are, until another connection stops reading older pages (`reason` says which);
 *   the store completes the erasure as soon as it can, and `engram.erasure()` completes and reports it.
 * - `delegated`: the backend is a server that reclaims deleted data on its own schedule (Qdrant).
 */
export type Erasure =
  | { readonly state: "erased" }
  | { readonly state: "pending" | "delegated"; readonly reason: string };

export interface ForgetReport extends ForgetCounts {
  readonly erasure: Erasure;
}

export interface StorageStats {
  readonly memories: number;
  readonly byKind: Partial<Record<MemoryKind, number>>;
  readonly byTier: Partial<Record<Tier, number>>;
  readonly vectors: number;
  readonly history: number;
  readonly edges: number;
  readonly kv: number;
  readonly jobs: Partial<Record<JobStatus, number>>;
  readonly users: number;
}

export interface StorageCapabilities {
  readonly fullText: boolean;
  readonly vector: boolean;
  /** Deleted bytes are overwritten, not just unlinked. */
  readonly secureDelete: boolean;
  /** Several processes may open the same store. */
  readonly multiProcess: boolean;
}

/**
 * The storage port: a small set of primitives every backend implements. Every call names its scope and
 * backends refuse a call without a userId. Conveniences are built once, in the engine, on top of these.
 */
export interface StoragePort {
  /** The version of this contract the backend implements: `STORAGE_SPECIFICATION_VERSION` (1). */
  readonly specificationVersion: 1;
  readonly backend: string;
  readonly capabilities: StorageCapabilities;
  /**
   * Why the store refuses writes (e.g. "the file is not writable by this process"), or null/absent when
   * it takes them. A read-only store's writes raise a ReadOnlyError; its reads work.
   */
  readonly readOnly?: string | null;

  write(scope: Scope, batch: WriteBatch): Promise<WriteResult>;
  get(scope: Scope, ids: readonly string[]): Promise<MemoryRecord[]>;
  getVectors(scope: Scope, ids: readonly string[]): Promise<Map<string, Float32Array>>;
  scan(scope: Scope, options?: ScanOptions): Promise<MemoryRecord[]>;
  count(scope: Scope, filter?: MemoryFilter): Promise<number>;
  textSearch(scope: Scope, query: TextQuery): Promise<Hit[]>;
  /** Nearest first, up to `k` hits. */
  vectorSearch(scope: Scope, query: VectorQuery): Promise<Hit[]>;
  /**
   * Optional: mean and standard deviation of the similarity over every vector the query's filter admits,
   * so fusion can normalise the vector channel over the whole scope rather than over its top hits. Null
   * when the backend cannot tell cheaply (an approximate index).
   */
  vectorStats?(scope: Scope, query: VectorQuery): Promise<VectorStats | null>;
  /**
   * Optional: the full-text query's score statistics over its best `k` matches, for a backend whose
   * `textSearch` may list fewer matches than it scored (SQLite leaves out rows that match only terms
   * common in the scope). Null when nothing matches. Without it the fusion estimates them from the hits.
   */
  textStats?(scope: Scope, query: TextQuery): Promise<TextStats | null>;

  history(scope: Scope, memoryId: string): Promise<MemoryVersion[]>;
  /** The user's edges; `to` may name several targets (any of them), as retrieval reads several segments. */
  edges(scope: Scope, query: EdgeQuery): Promise<MemoryEdge[]>;

  kvGet(scope: Scope, namespace: readonly string[], key: string): Promise<KvEntry | null>;
  kvList(scope: Scope, options?: KvListOptions): Promise<KvEntry[]>;

  /**
   * Takes up to `limit` due jobs of any user, leasing them for `leaseMs` (expired leases are retaken).
   * Two workers, in one process or several, never hold one job at once.
   */
  claimJobs(options: ClaimOptions): Promise<Job[]>;
  /**
   * Extends a held job's lease to `leaseUntil` (ISO), so a long job is not taken over while it runs.
   * `attempt` is the job's `attempts` as claimed; false when the job has been taken over or finished.
   */
  renewJob(jobId: string, attempt: number, leaseUntil: string): Promise<boolean>;
  /** Marks the job done. With `attempt`: only while the caller still holds it (see `renewJob`). */
  completeJob(jobId: string, attempt?: number): Promise<void>;
  /**
   * Records the error; re-queues at `retryAt`, or marks the job failed when `retryAt` is null. With
   * `attempt`: only while the caller still holds it.
   */
  failJob(jobId: string, error: string, retryAt: string | null, attempt?: number): Promise<void>;
  jobs(scope: Scope, status?: JobStatus): Promise<Job[]>;

  /** Removes every record, vector, history row, edge, key-value entry and job of the user, and their bytes. */
  forgetUser(scope: Scope): Promise<ForgetReport>;
  /**
   * Optional: completes what earlier forgets left on disk, waiting up to `waitMs` for readers of older
   * pages, and says whether anything is still pending. A backend without it reports `delegated`.
   */
  completeErasure?(waitMs: number): Promise<Erasure>;
  /** Users that have any stored state. */
  users(): Promise<string[]>;
  /**
   * A store-wide setting, owned by no user (which embedder made the stored vectors, a move to another one
   * under way), or null when it was never set.
   */
  readSetting(name: string): Promise<string | null>;
  /** Sets a store-wide setting, or removes it with null. A read-only store raises a ReadOnlyError. */
  writeSetting(name: string, value: string | null): Promise<void>;
  stats(scope?: Scope): Promise<StorageStats>;
  close(): Promise<void>;
}
