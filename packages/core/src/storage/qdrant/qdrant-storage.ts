import { ClosedError, EngramError, StorageError } from "../../errors/index.js";
import {
  assertScope,
  type MemoryEdge,
  type MemoryRecord,
  type MemoryVersion,
  type Scope,
} from "../../model/index.js";
import { assertBatchScope } from "../batch-scope.js";
import type {
  ClaimOptions,
  EdgeQuery,
  ForgetReport,
  Hit,
  Job,
  JobStatus,
  KvEntry,
  KvListOptions,
  MemoryFilter,
  ScanOptions,
  StorageCapabilities,
  StoragePort,
  StorageStats,
  TextQuery,
  VectorQuery,
  VectorStats,
  WriteBatch,
  WriteResult,
} from "../storage-port.js";
import { pointIds } from "./point-id.js";
import { Points } from "./points.js";
import { type Connected, connect, forgetUser } from "./qdrant-connection.js";
import { type QdrantStorageOptions, type ResolvedOptions, resolveOptions } from "./qdrant-options.js";
import { officialClient, QdrantTransport } from "./qdrant-transport.js";
import { writeBatch } from "./qdrant-writes.js";
import { resolveInserts } from "./write-checks.js";

/**
 * The Qdrant backend: records, history, edges, key-value entries and jobs as points of payload-only
 * collections, full text as a BM25 sparse vector (IDF applied by the server), dense vectors in one
 * collection per embedding size. Every request names the user through a tenant-indexed `user_id`. It
 * connects on first use: `GET /` checks the server version, then missing collections are created.
 */
export class QdrantStorage implements StoragePort {
  readonly specificationVersion = 1;
  readonly backend = "qdrant";
  readonly capabilities: StorageCapabilities = {
    fullText: true,
    vector: true,
    // Qdrant deletes points logically and reclaims space when segments are optimised.
    secureDelete: false,
    multiProcess: true,
  };
  /** The server's URL, or "the given QdrantClient" when the store was made with `client`. */
  readonly url: string;
  readonly collectionPrefix: string;
  private readonly options: ResolvedOptions;
  private readonly http: QdrantTransport;
  private readonly points: Points;
  private connecting: Promise<Connected> | null = null;
  private lastSeq = 0;
  private closed = false;

  constructor(options: QdrantStorageOptions) {
    this.options = resolveOptions(options);
    const { url, client, apiKey, timeoutMs } = this.options;
    this.url = url ?? "the given QdrantClient";
    this.collectionPrefix = this.options.prefix;
    let made: ReturnType<typeof officialClient> | null = null;
    const ours = () => {
      made ??= officialClient(url as string, apiKey, timeoutMs);
      return made;
    };
    this.http = new QdrantTransport({
      client: async () => client ?? ours(),
      where: this.url,
      retry: this.options.retry,
    });
    this.points = new Points(this.http);
  }

  /** HTTP requests sent so far, resends included. */
  get requestCount(): number {
    return this.http.requests;
  }

  /** Connects now (checks the version, creates collections) instead of on the first call; returns the version. */
  async connect(): Promise<string> {
    return (await this.ready("connect")).version.join(".");
  }

  async write(scope: Scope, given: WriteBatch): Promise<WriteResult> {
    const c = await this.scoped(scope, "write");
    assertBatchScope(scope, given);
    const context = {
      points: this.points,
      collections: c.collections,
      nextSeq: () => this.nextSeq(),
      textAvgLength: this.options.textAvgLength,
    };
    const { batch, inserted } = await this.run("write", () => resolveInserts(context, scope, given));
    // Only memories change vectors: a batch of jobs or key-value entries (a search's queued visit) keeps them.
    if (batch.upsert?.length || batch.deleteIds?.length) {
      const written = [...(batch.upsert ?? []).map((u) => u.record.id), ...(batch.deleteIds ?? [])];
      c.statsCache.invalidate(scope.userId, written.map(pointIds.memory));
    }
    const { conflicts, refused } = await this.run("write", () =>
      writeBatch(context, scope, batch, this.options.now().toISOString()),
    );
    return { inserted: refused ? [] : inserted, conflicts };
  }

  async get(scope: Scope, ids: readonly string[]): Promise<MemoryRecord[]> {
    return this.scopedRun(scope, "get", (c) => c.reads.get(scope, ids));
  }

  async getVectors(scope: Scope, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.scopedRun(scope, "getVectors", (c) => c.reads.getVectors(scope, ids));
  }

  async scan(scope: Scope, options?: ScanOptions): Promise<MemoryRecord[]> {
    return this.scopedRun(scope, "scan", (c) => c.reads.scan(scope, options));
  }

  async count(scope: Scope, filter?: MemoryFilter): Promise<number> {
    return this.scopedRun(scope, "count", (c) => c.reads.count(scope, filter));
  }

  async textSearch(scope: Scope, query: TextQuery): Promise<Hit[]> {
    return this.scopedRun(scope, "textSearch", (c) => c.reads.textSearch(scope, query));
  }

  async vectorSearch(scope: Scope, query: VectorQuery): Promise<Hit[]> {
    return this.scopedRun(scope, "vectorSearch", (c) => c.reads.vectorSearch(scope, query));
  }

  async vectorStats(scope: Scope, query: VectorQuery): Promise<VectorStats | null> {
    return this.scopedRun(scope, "vectorStats", (c) => c.reads.vectorStats(scope, query));
  }

  async history(scope: Scope, memoryId: string): Promise<MemoryVersion[]> {
    return this.scopedRun(scope, "history", (c) => c.reads.history(scope, memoryId));
  }

  async edges(scope: Scope, query: EdgeQuery): Promise<MemoryEdge[]> {
    return this.scopedRun(scope, "edges", (c) => c.reads.edges(scope, query));
  }

  async kvGet(scope: Scope, namespace: readonly string[], key: string): Promise<KvEntry | null> {
    return this.scopedRun(scope, "kvGet", (c) => c.reads.kvGet(scope, namespace, key));
  }

  async kvList(scope: Scope, options?: KvListOptions): Promise<KvEntry[]> {
    return this.scopedRun(scope, "kvList", (c) => c.reads.kvList(scope, options));
  }

  async claimJobs(options: ClaimOptions): Promise<Job[]> {
    return this.readyRun("claimJobs", (c) => c.queue.claim(options));
  }

  async renewJob(jobId: string, attempt: number, leaseUntil: string): Promise<boolean> {
    return this.readyRun("renewJob", (c) =>
      c.queue.renew(jobId, attempt, leaseUntil, this.options.now().toISOString()),
    );
  }

  async completeJob(jobId: string, attempt?: number): Promise<void> {
    await this.readyRun("completeJob", (c) =>
      c.queue.complete(jobId, this.options.now().toISOString(), attempt),
    );
  }

  async failJob(jobId: string, error: string, retryAt: string | null, attempt?: number): Promise<void> {
    await this.readyRun("failJob", (c) =>
      c.queue.fail(jobId, error, retryAt, this.options.now().toISOString(), attempt),
    );
  }

  async jobs(scope: Scope, status?: JobStatus): Promise<Job[]> {
    return this.scopedRun(scope, "jobs", (c) => c.queue.list(scope.userId, status));
  }

  /** Deletes every point of the user in every collection of the store (counted first, for the report). */
  async forgetUser(scope: Scope): Promise<ForgetReport> {
    return this.scopedRun(scope, "forgetUser", (c) => {
      c.statsCache.invalidate(scope.userId);
      return forgetUser(this.points, c.collections, scope);
    });
  }

  async users(): Promise<string[]> {
    return this.readyRun("users", (c) => c.reads.users());
  }

  async readSetting(name: string): Promise<string | null> {
    return this.readyRun("readSetting", async (c) => {
      const [point] = await this.points.retrieve(
        c.collections.names.settings,
        [pointIds.setting(name)],
        true,
      );
      const value = point?.payload?.value;
      return typeof value === "string" ? value : null;
    });
  }

  async writeSetting(name: string, value: string | null): Promise<void> {
    await this.readyRun("writeSetting", async (c) => {
      const id = pointIds.setting(name);
      await this.points.apply(c.collections.names.settings, [
        value === null
          ? { delete: { points: [id] } }
          : { upsert: { points: [{ id, vector: {}, payload: { name, value, updated_ms: Date.now() } }] } },
      ]);
    });
  }

  async stats(scope?: Scope): Promise<StorageStats> {
    const c = scope === undefined ? await this.ready("stats") : await this.scoped(scope, "stats");
    return this.run("stats", () => c.reads.stats(scope));
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** Strictly increasing per process, and roughly by wall time across processes. */
  private nextSeq(): number {
    this.lastSeq = Math.max(this.lastSeq + 1, Date.now() * 1000);
    return this.lastSeq;
  }

  private async scopedRun<T>(scope: Scope, operation: string, fn: (c: Connected) => Promise<T>): Promise<T> {
    const c = await this.scoped(scope, operation);
    return this.run(operation, () => fn(c));
  }

  private async readyRun<T>(operation: string, fn: (c: Connected) => Promise<T>): Promise<T> {
    const c = await this.ready(operation);
    return this.run(operation, () => fn(c));
  }

  private async scoped(scope: Scope, operation: string): Promise<Connected> {
    if (this.closed) throw new ClosedError(`the Qdrant store (${operation} on ${this.url})`);
    assertScope(scope, `qdrant.${operation}`);
    return this.ready(operation);
  }

  private async ready(operation: string): Promise<Connected> {
    if (this.closed) throw new ClosedError(`the Qdrant store (${operation} on ${this.url})`);
    if (!this.connecting) {
      this.connecting = this.open().catch((error: unknown) => {
        // A failed connection is retried by the next call rather than remembered forever.
        this.connecting = null;
        throw error;
      });
    }
    return this.connecting;
  }

  private async open(): Promise<Connected> {
    return this.run("connect", () => connect(this.http, this.points, this.url, this.options));
  }

  private async run<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (cause) {
      if (EngramError.isInstance(cause)) throw cause;
      throw new StorageError(`qdrant.${operation} failed on ${this.url}: ${(cause as Error).message}`, {
        cause,
      });
    }
  }
}

/** A storage backend on a Qdrant server: `createEngram({ storage: qdrantStorage({ url }) })`. */
export function qdrantStorage(options: QdrantStorageOptions): QdrantStorage {
  return new QdrantStorage(options);
}
