import { ClosedError, EngramError, StorageError } from "../../errors/index.js";
import {
  assertScope,
  type EdgeType,
  type MemoryEdge,
  type MemoryRecord,
  type MemoryVersion,
  type Scope,
} from "../../model/index.js";
import type {
  ClaimOptions,
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
} from "../storage-port.js";
import { Collections, checkServer, type Version } from "./collections.js";
import { scopeCondition } from "./filter.js";
import { Points } from "./points.js";
import { QdrantHttp } from "./qdrant-http.js";
import { type QdrantStorageOptions, type ResolvedOptions, resolveOptions } from "./qdrant-options.js";
import { QdrantQueue } from "./qdrant-queue.js";
import { QdrantReads } from "./qdrant-reads.js";
import { assertBatchScope, writeBatch } from "./qdrant-writes.js";
import { VectorStatsCache } from "./vector-stats.js";

interface Connected {
  readonly version: Version;
  readonly collections: Collections;
  readonly reads: QdrantReads;
  readonly statsCache: VectorStatsCache;
  readonly queue: QdrantQueue;
}

/**
 * The Qdrant backend: records, history, edges, key-value entries and jobs as points of payload-only
 * collections, full text as a BM25 sparse vector (IDF applied by the server), dense vectors in one
 * collection per embedding size. Every request names the user through a tenant-indexed `user_id`. It
 * connects on first use: `GET /` checks the server version, then missing collections are created.
 */
export class QdrantStorage implements StoragePort {
  readonly backend = "qdrant";
  readonly capabilities: StorageCapabilities = {
    fullText: true,
    vector: true,
    // Qdrant deletes points logically and reclaims space when segments are optimised.
    secureDelete: false,
    multiProcess: true,
  };
  readonly url: string;
  readonly collectionPrefix: string;
  private readonly options: ResolvedOptions;
  private readonly http: QdrantHttp;
  private readonly points: Points;
  private connecting: Promise<Connected> | null = null;
  private lastSeq = 0;
  private closed = false;

  constructor(options: QdrantStorageOptions) {
    this.options = resolveOptions(options);
    this.url = this.options.url;
    this.collectionPrefix = this.options.prefix;
    this.http = new QdrantHttp({
      url: this.options.url,
      ...(this.options.apiKey === undefined ? {} : { apiKey: this.options.apiKey }),
      timeoutMs: this.options.timeoutMs,
      retry: this.options.retry,
      ...(this.options.fetch === undefined ? {} : { fetch: this.options.fetch }),
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

  async write(scope: Scope, batch: WriteBatch): Promise<void> {
    const c = await this.scoped(scope, "write");
    assertBatchScope(scope, batch);
    c.statsCache.invalidate(scope.userId);
    await this.run("write", () =>
      writeBatch(
        {
          points: this.points,
          collections: c.collections,
          nextSeq: () => this.nextSeq(),
          textAvgLength: this.options.textAvgLength,
        },
        scope,
        batch,
        this.options.now().toISOString(),
      ),
    );
  }

  async get(scope: Scope, ids: readonly string[]): Promise<MemoryRecord[]> {
    const c = await this.scoped(scope, "get");
    return this.run("get", () => c.reads.get(scope, ids));
  }

  async getVectors(scope: Scope, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    const c = await this.scoped(scope, "getVectors");
    return this.run("getVectors", () => c.reads.getVectors(scope, ids));
  }

  async scan(scope: Scope, options?: ScanOptions): Promise<MemoryRecord[]> {
    const c = await this.scoped(scope, "scan");
    return this.run("scan", () => c.reads.scan(scope, options));
  }

  async count(scope: Scope, filter?: MemoryFilter): Promise<number> {
    const c = await this.scoped(scope, "count");
    return this.run("count", () => c.reads.count(scope, filter));
  }

  async textSearch(scope: Scope, query: TextQuery): Promise<Hit[]> {
    const c = await this.scoped(scope, "textSearch");
    return this.run("textSearch", () => c.reads.textSearch(scope, query));
  }

  async vectorSearch(scope: Scope, query: VectorQuery): Promise<Hit[]> {
    const c = await this.scoped(scope, "vectorSearch");
    return this.run("vectorSearch", () => c.reads.vectorSearch(scope, query));
  }

  async vectorStats(scope: Scope, query: VectorQuery): Promise<VectorStats | null> {
    const c = await this.scoped(scope, "vectorStats");
    return this.run("vectorStats", () => c.reads.vectorStats(scope, query));
  }

  async history(scope: Scope, memoryId: string): Promise<MemoryVersion[]> {
    const c = await this.scoped(scope, "history");
    return this.run("history", () => c.reads.history(scope, memoryId));
  }

  async edges(scope: Scope, query: { from?: string; to?: string; type?: EdgeType }): Promise<MemoryEdge[]> {
    const c = await this.scoped(scope, "edges");
    return this.run("edges", () => c.reads.edges(scope, query));
  }

  async kvGet(scope: Scope, namespace: readonly string[], key: string): Promise<KvEntry | null> {
    const c = await this.scoped(scope, "kvGet");
    return this.run("kvGet", () => c.reads.kvGet(scope, namespace, key));
  }

  async kvList(scope: Scope, options?: KvListOptions): Promise<KvEntry[]> {
    const c = await this.scoped(scope, "kvList");
    return this.run("kvList", () => c.reads.kvList(scope, options));
  }

  async claimJobs(options: ClaimOptions): Promise<Job[]> {
    const c = await this.ready("claimJobs");
    return this.run("claimJobs", () => c.queue.claim(options));
  }

  async completeJob(jobId: string): Promise<void> {
    const c = await this.ready("completeJob");
    await this.run("completeJob", () => c.queue.complete(jobId, this.options.now().toISOString()));
  }

  async failJob(jobId: string, error: string, retryAt: string | null): Promise<void> {
    const c = await this.ready("failJob");
    await this.run("failJob", () => c.queue.fail(jobId, error, retryAt, this.options.now().toISOString()));
  }

  async jobs(scope: Scope, status?: JobStatus): Promise<Job[]> {
    const c = await this.scoped(scope, "jobs");
    return this.run("jobs", () => c.queue.list(scope.userId, status));
  }

  /** Deletes every point of the user in every collection of the store (counted first, for the report). */
  async forgetUser(scope: Scope): Promise<ForgetReport> {
    const c = await this.scoped(scope, "forgetUser");
    c.statsCache.invalidate(scope.userId);
    return this.run("forgetUser", async () => {
      const names = c.collections.names;
      const filter = { must: [scopeCondition(scope)] };
      const counted: Record<string, number> = {};
      for (const name of c.collections.all()) {
        counted[name] = await this.points.count(name, filter);
        await this.points.apply(name, [{ delete: { filter } }]);
      }
      const n = (name: string) => counted[name] ?? 0;
      return {
        memories: n(names.memories),
        history: n(names.history),
        edges: n(names.edges),
        kv: n(names.kv),
        jobs: n(names.jobs),
      };
    });
  }

  async users(): Promise<string[]> {
    const c = await this.ready("users");
    return this.run("users", () => c.reads.users());
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
    const version = await checkServer(this.http, this.url);
    const collections = new Collections(this.http, this.options.prefix, version);
    await this.run("connect", () => collections.ensure());
    const statsCache = new VectorStatsCache(this.points, this.options.vectorStatsLimit);
    return {
      version,
      collections,
      statsCache,
      reads: new QdrantReads(this.points, collections, statsCache),
      queue: new QdrantQueue(this.points, collections.names.jobs),
    };
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
