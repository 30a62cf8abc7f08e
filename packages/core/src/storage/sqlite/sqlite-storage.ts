import type Database from "better-sqlite3";
import {
  ClosedError,
  EngramError,
  ReadOnlyError,
  StorageError,
  ValidationError,
} from "../../errors/index.js";
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
  Erasure,
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
  TextStats,
  VectorQuery,
  VectorStats,
  WriteBatch,
  WriteResult,
} from "../storage-port.js";
import { type HistoryRow, rowToVersion } from "../stored-rows.js";
import { optimize, retryBusy } from "./busy.js";
import { filterToSql } from "./filter-sql.js";
import { FullTextSearch } from "./full-text-search.js";
import { openDatabase } from "./open-database.js";
import { openReadOnlyStore, readOnlyReason } from "./open-store.js";
import { RecordCache } from "./record-cache.js";
import type { Remembered } from "./remembered.js";
import { blobToVector } from "./row-mapping.js";
import { EdgeMemory } from "./sqlite-edges.js";
import { FORGET_WAIT_MS, SqliteErasure } from "./sqlite-erasure.js";
import { listKv, readKv } from "./sqlite-kv.js";
import { purgeUser } from "./sqlite-purge.js";
import { SqliteQueue } from "./sqlite-queue.js";
import { ScanCounts, scanRecords } from "./sqlite-scan.js";
import { readStats } from "./sqlite-stats.js";
import { applyBatch, prepareWrites, type WriteStatements } from "./sqlite-writes.js";
import { VectorCache } from "./vector-cache.js";

export interface SqliteStorageOptions {
  /** Database file; `:memory:` for a throwaway store. Default `.engram/engram.db`. */
  path?: string;
  /**
   * `full` (default): every acknowledged write is fsynced and survives a power loss.
   * `normal`: survives a process crash, may lose the last commits on power loss; faster.
   */
  durability?: "full" | "normal";
  /** Clock for system times the backend stamps itself (job and key-value times). */
  now?: () => Date;
  /**
   * `true`: open for reading only; writes raise a ReadOnlyError and no file is created beside the store.
   * Default: read-only when this process cannot write the file (or create its -wal), else read-write.
   * `false`: always read-write.
   */
  readonly?: boolean;
  /**
   * Most bytes of vectors held in memory for exact search, all users together (default 256 MiB). Users
   * searched least recently are let go beyond it and read again on their next search. A user's kind with
   * 5,000 vectors or more is searched through an index file mapped from disk instead, not counted here;
   * 0 holds only the user being searched.
   */
  vectorCacheBytes?: number;
}

/** Operations that change the file; a read-only store refuses them before touching SQLite. */
const WRITES = new Set([
  "write",
  "claimJobs",
  "renewJob",
  "completeJob",
  "failJob",
  "forgetUser",
  "writeSetting",
]);

export const DEFAULT_DB_PATH = ".engram/engram.db";

/** The embedded default backend: one SQLite file (WAL), FTS5 full-text, vectors stored with their records. */
export class SqliteStorage implements StoragePort {
  readonly specificationVersion = 1;
  readonly backend = "sqlite";
  readonly capabilities: StorageCapabilities = {
    fullText: true,
    vector: true,
    secureDelete: true,
    multiProcess: true,
  };
  readonly path: string;
  /** Why the store is read-only (e.g. "the file is not writable by this process"), or null. */
  readonly readOnly: string | null;
  private readonly db: Database.Database;
  private readonly writes: WriteStatements;
  private readonly vectors: VectorCache;
  private readonly fullText: FullTextSearch;
  private readonly edgeMemory: EdgeMemory;
  private readonly records: RecordCache;
  private readonly counts = new ScanCounts();
  /** Everything above that remembers the file between calls, told of each write in one place. */
  private readonly remembered: readonly Remembered[];
  private readonly queue: SqliteQueue;
  private readonly erasure: SqliteErasure;
  private readonly now: () => Date;
  private dataVersion: number;
  private readonly statements = new Map<string, Database.Statement>();
  private closed = false;

  constructor(options: SqliteStorageOptions = {}) {
    this.path = options.path ?? DEFAULT_DB_PATH;
    const cacheBytes = options.vectorCacheBytes;
    if (cacheBytes !== undefined && !(Number.isSafeInteger(cacheBytes) && cacheBytes >= 0))
      throw new ValidationError(
        `sqliteStorage: vectorCacheBytes must be a whole number of bytes, 0 or more; got ${String(cacheBytes)}`,
        { details: { path: "vectorCacheBytes" } },
      );
    this.now = options.now ?? (() => new Date());
    this.readOnly = readOnlyReason(this.path, options.readonly);
    this.db =
      this.readOnly === null
        ? openDatabase(this.path, options.durability ?? "full")
        : openReadOnlyStore(this.path);
    this.writes = prepareWrites(this.db);
    this.vectors = new VectorCache(this.db, {
      path: this.path,
      writable: this.readOnly === null,
      maxHeldBytes: cacheBytes,
    });
    this.fullText = new FullTextSearch(this.db, this.writes.blocks, this.cached);
    this.queue = new SqliteQueue(this.db);
    this.edgeMemory = new EdgeMemory(this.cached);
    this.records = new RecordCache(this.cached);
    this.erasure = new SqliteErasure(this.db, this.path);
    this.remembered = [
      this.writes.blocks,
      this.edgeMemory,
      this.records,
      this.counts,
      this.fullText,
      this.vectors,
    ];
    // A forget this or another process could not finish (a reader, a crash): finish it, or keep trying.
    if (this.readOnly === null && this.erasure.tryComplete(0).state === "pending") this.erasure.retryLater();
    this.dataVersion = this.readDataVersion();
  }

  async write(scope: Scope, batch: WriteBatch): Promise<WriteResult> {
    this.guard(scope, "write");
    assertBatchScope(scope, batch);
    const now = this.now().toISOString();
    const { removed, inserted, reindexed, conflicts, moved } = await this.runWrite("write", () =>
      this.db.transaction(() => applyBatch(this.writes, scope, batch, now)).immediate(),
    );
    if (conflicts.length) return { inserted: [], conflicts };
    const written = [...(batch.upsert ?? []), ...inserted].map(({ record, vector }) => ({
      id: record.id,
      kind: record.kind,
      tier: record.tier,
      expired: record.expiredAt !== null,
      vector: vector === undefined ? moved.get(record.id) : vector,
    }));
    const change = { userId: scope.userId, removed, written, reindexed, edges: Boolean(batch.edges?.length) };
    for (const memory of this.remembered) memory.written(change);
    return { inserted: inserted.map(({ record }) => record.id), conflicts: [] };
  }

  async get(scope: Scope, ids: readonly string[]): Promise<MemoryRecord[]> {
    this.guard(scope, "get");
    if (ids.length === 0) return [];
    this.syncWithOtherConnections();
    return this.run("get", () => this.records.read(scope.userId, ids));
  }

  async getVectors(scope: Scope, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    this.guard(scope, "getVectors");
    this.syncWithOtherConnections();
    // From the loaded vector set when the user has one (copies), else (or for ids it lacks) from SQL.
    const out = this.vectors.copies(scope.userId, ids);
    const missing = ids.filter((id) => !out.has(id));
    if (missing.length === 0) return out;
    const where = filterToSql(scope.userId, { ids: missing });
    const rows = this.run("getVectors", () =>
      this.cached(
        `SELECT m.id AS id, v.embedding AS embedding FROM memories m JOIN vectors v ON v.rowid = m.rowid
         WHERE ${where.sql}`,
      ).all(...where.params),
    ) as { id: string; embedding: Buffer }[];
    for (const r of rows) out.set(r.id, blobToVector(r.embedding));
    return out;
  }

  async scan(scope: Scope, options: ScanOptions = {}): Promise<MemoryRecord[]> {
    return this.read(scope, "scan", () =>
      scanRecords(this.cached, this.writes.blocks, this.counts, this.records, scope.userId, options),
    );
  }

  async count(scope: Scope, filter?: MemoryFilter): Promise<number> {
    this.guard(scope, "count");
    const where = filterToSql(scope.userId, filter);
    const row = this.run("count", () =>
      this.db.prepare(`SELECT count(*) AS n FROM memories m WHERE ${where.sql}`).get(...where.params),
    ) as { n: number };
    return row.n;
  }

  async textSearch(scope: Scope, query: TextQuery): Promise<Hit[]> {
    return this.read(scope, "textSearch", () => this.fullText.search(scope.userId, query));
  }

  async textStats(scope: Scope, query: TextQuery): Promise<TextStats | null> {
    return this.read(scope, "textStats", () => this.fullText.stats(scope.userId, query));
  }

  async vectorSearch(scope: Scope, query: VectorQuery): Promise<Hit[]> {
    return this.read(scope, "vectorSearch", () => this.vectors.search(scope.userId, query));
  }

  async vectorStats(scope: Scope, query: VectorQuery): Promise<VectorStats | null> {
    return this.read(scope, "vectorStats", () => this.vectors.stats(scope.userId, query));
  }

  async history(scope: Scope, memoryId: string): Promise<MemoryVersion[]> {
    this.guard(scope, "history");
    const rows = this.run("history", () =>
      this.db
        .prepare("SELECT * FROM history WHERE user_id = ? AND memory_id = ? ORDER BY version, at")
        .all(scope.userId, memoryId),
    ) as HistoryRow[];
    return rows.map(rowToVersion);
  }

  async edges(scope: Scope, query: EdgeQuery): Promise<MemoryEdge[]> {
    return this.read(scope, "edges", () => this.edgeMemory.read(scope.userId, query));
  }

  async kvGet(scope: Scope, namespace: readonly string[], key: string): Promise<KvEntry | null> {
    this.guard(scope, "kvGet");
    return this.run("kvGet", () => readKv(this.cached, scope.userId, namespace, key));
  }

  async kvList(scope: Scope, options: KvListOptions = {}): Promise<KvEntry[]> {
    this.guard(scope, "kvList");
    return this.run("kvList", () => listKv(this.cached, scope.userId, options));
  }

  async claimJobs(options: ClaimOptions): Promise<Job[]> {
    this.open("claimJobs");
    return this.runWrite("claimJobs", () => this.queue.claim(options));
  }

  async renewJob(jobId: string, attempt: number, leaseUntil: string): Promise<boolean> {
    this.open("renewJob");
    const now = this.now().toISOString();
    return this.runWrite("renewJob", () => this.queue.renew(jobId, attempt, leaseUntil, now));
  }

  async completeJob(jobId: string, attempt?: number): Promise<void> {
    this.open("completeJob");
    await this.runWrite("completeJob", () => this.queue.complete(jobId, this.now().toISOString(), attempt));
  }

  async failJob(jobId: string, error: string, retryAt: string | null, attempt?: number): Promise<void> {
    this.open("failJob");
    const now = this.now().toISOString();
    await this.runWrite("failJob", () => this.queue.fail(jobId, error, retryAt, now, attempt));
  }

  async jobs(scope: Scope, status?: JobStatus): Promise<Job[]> {
    this.guard(scope, "jobs");
    return this.run("jobs", () => this.queue.list(scope.userId, status));
  }

  async forgetUser(scope: Scope): Promise<ForgetReport> {
    this.guard(scope, "forgetUser");
    const at = this.now().toISOString();
    const counts = await this.runWrite("forgetUser", () =>
      this.db
        .transaction(() => {
          const removed = purgeUser(this.db, scope.userId);
          if (Object.values(removed).some((n) => n > 0)) this.erasure.note(at);
          return removed;
        })
        .immediate(),
    );
    this.forgetRemembered(scope.userId);
    this.vectors.forget(scope.userId);
    return { ...counts, erasure: await this.completeErasure(FORGET_WAIT_MS) };
  }

  async completeErasure(waitMs: number): Promise<Erasure> {
    this.open("completeErasure");
    if (this.readOnly !== null) return this.run("completeErasure", () => this.erasure.status());
    const erasure = await this.runWrite("completeErasure", () => this.erasure.complete(waitMs));
    if (erasure.state === "pending") this.erasure.retryLater();
    else this.erasure.stop();
    return erasure;
  }

  async users(): Promise<string[]> {
    this.open("users");
    const rows = this.run("users", () =>
      this.db
        .prepare(
          "SELECT user_id FROM memories UNION SELECT user_id FROM kv UNION SELECT user_id FROM jobs ORDER BY 1",
        )
        .all(),
    ) as { user_id: string }[];
    return rows.map((r) => r.user_id);
  }

  async readSetting(name: string): Promise<string | null> {
    this.open("readSetting");
    const row = this.run("readSetting", () =>
      this.cached("SELECT value FROM settings WHERE name = ?").get(name),
    ) as { value: string } | undefined;
    return row?.value ?? null;
  }

  async writeSetting(name: string, value: string | null): Promise<void> {
    this.open("writeSetting");
    await this.runWrite("writeSetting", () => {
      if (value === null) this.cached("DELETE FROM settings WHERE name = ?").run(name);
      else {
        this.cached(
          `INSERT INTO settings (name, value, updated_at) VALUES (?, ?, ?)
           ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        ).run(name, value, new Date().toISOString());
      }
    });
  }

  async stats(scope?: Scope): Promise<StorageStats> {
    if (scope) this.guard(scope, "stats");
    else this.open("stats");
    return this.run("stats", () => readStats(this.db, scope?.userId));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.erasure.stop();
    this.vectors.close();
    if (this.readOnly === null) {
      // A last try at a pending erasure; what is still pending is finished by the next open.
      this.erasure.tryComplete(0);
      this.run("close", () => optimize(this.db, "optimize"));
    }
    this.db.close();
  }

  /** Another process may have written the same file: then all this connection remembers is stale. */
  private syncWithOtherConnections(): void {
    const version = this.readDataVersion();
    if (version !== this.dataVersion) {
      this.forgetRemembered();
      this.dataVersion = version;
    }
  }

  /**
   * Forgets what this connection remembers of the file: loaded vectors (one user's, after a forget, or
   * everyone's), full-text terms and rows, rowid blocks, edges and records.
   */
  private forgetRemembered(userId?: string): void {
    for (const memory of this.remembered) memory.drop(userId);
  }

  private readDataVersion(): number {
    return this.cached("PRAGMA data_version").pluck().get() as number;
  }

  /**
   * Hot paths (key-value reads for checkpoints, record reads and scans for retrieval) prepare their
   * statements once per SQL text; the cache is bounded, as filters of many shapes make many texts.
   */
  private readonly cached = (sql: string): Database.Statement => {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= 256) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  };

  private guard(scope: Scope, operation: string): void {
    this.open(operation);
    assertScope(scope, `sqlite.${operation}`);
  }

  private open(operation: string): void {
    if (this.closed) throw new ClosedError(`the SQLite store (${operation} on ${this.path})`);
    if (this.readOnly !== null && WRITES.has(operation)) {
      throw new ReadOnlyError(
        `sqlite.${operation}: the SQLite store at ${this.path} is open read-only (${this.readOnly}); ` +
          "reads work, writes need a store opened for writing",
      );
    }
  }

  /** A read of what another connection may have changed: what this one remembers is checked first. */
  private read<T>(scope: Scope, operation: string, fn: () => T): T {
    this.guard(scope, operation);
    this.syncWithOtherConnections();
    return this.run(operation, fn);
  }

  private run<T>(operation: string, fn: () => T): T {
    try {
      return fn();
    } catch (cause) {
      throw this.failure(operation, cause);
    }
  }

  /** A write: retried while other processes hold the file's write lock (see busy.ts). */
  private async runWrite<T>(operation: string, fn: () => T): Promise<T> {
    try {
      return await retryBusy(`sqlite.${operation} on ${this.path}`, fn);
    } catch (cause) {
      throw this.failure(operation, cause);
    }
  }

  private failure(operation: string, cause: unknown): Error {
    if (EngramError.isInstance(cause)) return cause;
    return new StorageError(`sqlite.${operation} failed on ${this.path}: ${(cause as Error).message}`, {
      cause,
    });
  }
}
