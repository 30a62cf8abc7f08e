import { ClosedError, ValidationError } from "../../errors/index.js";
import {
  assertScope,
  cosine,
  cubeKey,
  fullTextBody,
  type MemoryEdge,
  type MemoryRecord,
  type MemoryVersion,
  passageCount,
  queryTerms,
  type Scope,
  type StoredMemory,
  tokenize,
} from "../../model/index.js";
import { byNamespaceAndKey, byVersion, idTaken, keySlot, keyTaken, page } from "../backend-rules.js";
import { assertBatchScope } from "../batch-scope.js";
import { expectationConflicts } from "../expected-records.js";
import { metadataMatcher } from "../metadata-filter.js";
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
  VectorQuery,
  VectorStats,
  WriteBatch,
  WriteResult,
} from "../storage-port.js";
import { term } from "../text-terms.js";
import { MemoryJobs } from "./memory-jobs.js";

/** BM25 constants, as SQLite's FTS5 uses them. */
const K1 = 1.2;
const B = 0.75;

/** One stored memory: the record, its vector, its indexed terms and its first-write order. */
interface Row {
  readonly record: MemoryRecord;
  readonly vector: Float32Array | null;
  /** Term frequencies of the record's full-text body, and the body's length in tokens. */
  readonly terms: ReadonlyMap<string, number>;
  readonly length: number;
  readonly seq: number;
}

/** Everything one user has. Users never share a structure, so no read can reach another user's state. */
interface UserState {
  readonly rows: Map<string, Row>;
  /** History rows by `memoryId`, each keyed by version and event (a rewrite of one replaces it). */
  readonly history: Map<string, Map<string, MemoryVersion>>;
  /** Edges keyed by from, to and type, in first-write order. */
  readonly edges: Map<string, MemoryEdge>;
  readonly kv: Map<string, KvEntry>;
}

const copy = <T>(value: T): T => structuredClone(value);
const json = (value: unknown) => JSON.stringify(value);

function instant(value: string, field: string): number {
  const t = Date.parse(value);
  if (Number.isNaN(t))
    throw new ValidationError(`filter.${field} must be an ISO 8601 time, got ${json(value)}`);
  return t;
}

/** Whether a record passes every condition of a filter (the port's filter semantics, spelled out). */
function filterTest(filter: MemoryFilter = {}): (r: MemoryRecord) => boolean {
  const ids = filter.ids && new Set(filter.ids);
  const cubes = filter.cubes && new Set(filter.cubes.map(cubeKey));
  const at = filter.at === undefined ? null : instant(filter.at, "at");
  const from = filter.from === undefined ? null : instant(filter.from, "from");
  const to = filter.to === undefined ? null : instant(filter.to, "to");
  const metadata = filter.metadata ? metadataMatcher(filter.metadata) : null;
  return (r) => {
    if (ids && !ids.has(r.id)) return false;
    if (filter.kinds && !filter.kinds.includes(r.kind)) return false;
    if (filter.tiers && !filter.tiers.includes(r.tier)) return false;
    if (filter.roles && (r.role === null || !filter.roles.includes(r.role))) return false;
    if (cubes && !cubes.has(cubeKey(r.cube))) return false;
    if (filter.agentId !== undefined && r.agentId !== filter.agentId) return false;
    if (filter.sessionId !== undefined && r.sessionId !== filter.sessionId) return false;
    if (filter.key !== undefined && r.key !== filter.key) return false;
    if (filter.current && r.expiredAt !== null) return false;
    if (at !== null) {
      if (Date.parse(r.createdAt) > at) return false;
      if (r.expiredAt !== null && Date.parse(r.expiredAt) <= at) return false;
    }
    // A memory without an event time is outside every event-time window.
    const valid = r.validFrom === null ? Number.NaN : Date.parse(r.validFrom);
    if (from !== null && !(valid >= from)) return false;
    if (to !== null && !(valid <= to)) return false;
    return metadata === null || metadata(r.metadata);
  };
}

/** Event time (system time for a memory without one), then system time, then first-write order. */
const eventTime = (r: MemoryRecord) => Date.parse(r.validFrom ?? r.createdAt);
function byTime(a: Row, b: Row): number {
  return (
    eventTime(a.record) - eventTime(b.record) ||
    Date.parse(a.record.createdAt) - Date.parse(b.record.createdAt) ||
    a.seq - b.seq
  );
}

/** Best first; equal scores in first-write order, so a ranking is the same on every call. */
function ranked(scored: { row: Row; score: number }[], k: number): Hit[] {
  return scored
    .sort((a, b) => b.score - a.score || a.row.seq - b.row.seq)
    .slice(0, Math.max(0, k))
    .map(({ row, score }) => ({ id: row.record.id, score }));
}

const kvKey = (namespace: readonly string[], key: string) => json([...namespace, key]);

/**
 * The in-memory reference backend: the storage port written out plainly, with exact full-text (BM25 over
 * the user's memories) and exact vector search, and nothing kept outside the process. It is the readable
 * specification of the port, passes the same conformance suite as SQLite and Qdrant, and serves fast tests
 * and short-lived programs. Every batch is checked whole before any of it is applied, and applied without
 * yielding, so a batch is atomic and concurrent calls see it all or not at all.
 */
export class MemoryStorage implements StoragePort {
  readonly specificationVersion = 1;
  readonly backend = "memory";
  readonly capabilities: StorageCapabilities = {
    fullText: true,
    vector: true,
    secureDelete: false,
    multiProcess: false,
  };
  readonly readOnly = null;

  private readonly users_ = new Map<string, UserState>();
  /** Which user holds each memory id: an id is one user's only. */
  private readonly owners = new Map<string, string>();
  private readonly queue = new MemoryJobs(() => this.now());
  private readonly settings = new Map<string, string>();
  private seq = 0;
  private lastNow = 0;
  private closed = false;

  /** The store's clock: never the same instant twice, so an update always moves `updatedAt`. */
  private now(): string {
    this.lastNow = Math.max(Date.now(), this.lastNow + 1);
    return new Date(this.lastNow).toISOString();
  }

  private open(operation: string): void {
    if (this.closed) throw new ClosedError(`the in-memory store (${operation})`);
  }

  private scoped(scope: Scope, operation: string): UserState | undefined {
    assertScope(scope, operation);
    this.open(operation);
    return this.users_.get(scope.userId);
  }

  private state(userId: string): UserState {
    let state = this.users_.get(userId);
    if (!state) {
      state = { rows: new Map(), history: new Map(), edges: new Map(), kv: new Map() };
      this.users_.set(userId, state);
    }
    return state;
  }

  async write(scope: Scope, batch: WriteBatch): Promise<WriteResult> {
    assertScope(scope, "write");
    this.open("write");
    assertBatchScope(scope, batch);
    const mine = this.users_.get(scope.userId)?.rows ?? new Map<string, Row>();

    // Checks first: nothing is applied unless the whole batch can be.
    const held = new Map<string, MemoryRecord>();
    for (const r of batch.expect ?? []) {
      const row = mine.get(r.id);
      if (row) held.set(r.id, row.record);
    }
    const conflicts = expectationConflicts(batch.expect ?? [], held);
    if (conflicts.length) return { inserted: [], conflicts };

    for (const { record } of [...(batch.upsert ?? []), ...(batch.insert ?? [])]) {
      const owner = this.owners.get(record.id);
      if (owner !== undefined && owner !== scope.userId) throw idTaken(record.id);
    }
    const inserted: StoredMemory[] = [];
    const insertedIds = new Set<string>();
    for (const s of batch.insert ?? []) {
      if (mine.has(s.record.id) || insertedIds.has(s.record.id)) continue;
      insertedIds.add(s.record.id);
      inserted.push(s);
    }
    const skipped = new Set(
      (batch.insert ?? []).map((s) => s.record.id).filter((id) => !insertedIds.has(id)),
    );
    const upserts = [...(batch.upsert ?? []), ...inserted];
    const deleted = new Set((batch.deleteIds ?? []).filter((id) => mine.has(id)));
    this.assertKeysFree(mine, upserts, deleted);

    // Apply, without an await in between.
    const hasState =
      upserts.length ||
      batch.history?.length ||
      batch.edges?.length ||
      batch.kvPut?.length ||
      batch.jobs?.length;
    if (!hasState && deleted.size === 0 && !batch.kvDelete?.length) return { inserted: [], conflicts: [] };
    const state = this.state(scope.userId);
    for (const id of deleted) this.removeMemory(state, id);
    for (const { record, vector } of upserts) this.storeMemory(state, record, vector);
    for (const v of batch.history ?? []) {
      if (skipped.has(v.memoryId) && !insertedIds.has(v.memoryId)) continue;
      const versions = state.history.get(v.memoryId) ?? new Map<string, MemoryVersion>();
      versions.set(json([v.version, v.event]), copy(v));
      state.history.set(v.memoryId, versions);
    }
    for (const e of batch.edges ?? []) state.edges.set(json([e.from, e.to, e.type]), copy(e));
    const now = this.now();
    for (const e of batch.kvPut ?? []) {
      const key = kvKey(e.namespace, e.key);
      const createdAt = e.createdAt ?? state.kv.get(key)?.createdAt ?? now;
      state.kv.set(key, {
        namespace: [...e.namespace],
        key: e.key,
        value: e.value,
        createdAt,
        updatedAt: e.updatedAt ?? now,
      });
    }
    for (const e of batch.kvDelete ?? []) state.kv.delete(kvKey(e.namespace, e.key));
    for (const job of batch.jobs ?? []) this.queue.enqueue(scope.userId, job, now);
    this.dropIfEmpty(scope.userId);
    return { inserted: inserted.map((s) => s.record.id), conflicts: [] };
  }

  /** A key is unique per user, cube and kind among current memories, after the batch. */
  private assertKeysFree(
    mine: ReadonlyMap<string, Row>,
    upserts: readonly StoredMemory[],
    deleted: ReadonlySet<string>,
  ): void {
    const touched = new Set([...deleted, ...upserts.map((s) => s.record.id)]);
    const taken = new Set<string>();
    for (const { record } of mine.values()) {
      if (record.key !== null && record.expiredAt === null && !touched.has(record.id))
        taken.add(keySlot(record));
    }
    for (const { record: r } of upserts) {
      if (r.key === null || r.expiredAt !== null) continue;
      if (taken.has(keySlot(r))) throw keyTaken(r);
      taken.add(keySlot(r));
    }
  }

  /** Stores a record; without a vector (undefined) it keeps the one stored, null removes it. */
  private storeMemory(state: UserState, record: MemoryRecord, vector: Float32Array | null | undefined): void {
    const previous = state.rows.get(record.id);
    const tokens = tokenize(fullTextBody({ ...record, passages: passageCount(record) }));
    const terms = new Map<string, number>();
    for (const token of tokens) {
      const t = term(token);
      terms.set(t, (terms.get(t) ?? 0) + 1);
    }
    this.owners.set(record.id, record.userId);
    state.rows.set(record.id, {
      record: copy(record),
      vector: vector === undefined ? (previous?.vector ?? null) : vector && Float32Array.from(vector),
      terms,
      length: tokens.length,
      seq: previous?.seq ?? ++this.seq,
    });
  }

  private removeMemory(state: UserState, id: string): void {
    state.rows.delete(id);
    this.owners.delete(id);
    state.history.delete(id);
    for (const [key, e] of state.edges) if (e.from === id || e.to === id) state.edges.delete(key);
  }

  /** A user with no memories, kv entries or jobs is not a user (history and edges hang off memories). */
  private dropIfEmpty(userId: string): void {
    const state = this.users_.get(userId);
    if (!state || state.rows.size || state.kv.size || state.history.size || state.edges.size) return;
    this.users_.delete(userId);
  }

  async get(scope: Scope, ids: readonly string[]): Promise<MemoryRecord[]> {
    const rows = this.scoped(scope, "get")?.rows;
    return [...new Set(ids)].flatMap((id) => {
      const row = rows?.get(id);
      return row ? [copy(row.record)] : [];
    });
  }

  async getVectors(scope: Scope, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    const rows = this.scoped(scope, "getVectors")?.rows;
    const out = new Map<string, Float32Array>();
    for (const id of ids) {
      const vector = rows?.get(id)?.vector;
      if (vector) out.set(id, Float32Array.from(vector));
    }
    return out;
  }

  /** The user's rows that pass the filter, in first-write order. */
  private matching(scope: Scope, operation: string, filter?: MemoryFilter): Row[] {
    const rows = this.scoped(scope, operation)?.rows;
    const test = filterTest(filter);
    return rows ? [...rows.values()].filter((row) => test(row.record)) : [];
  }

  async scan(scope: Scope, options: ScanOptions = {}): Promise<MemoryRecord[]> {
    const rows = this.matching(scope, "scan", options.filter).sort(byTime);
    if (options.order === "desc") rows.reverse();
    return page(rows, options.limit, options.offset).map((row) => copy(row.record));
  }

  async count(scope: Scope, filter?: MemoryFilter): Promise<number> {
    return this.matching(scope, "count", filter).length;
  }

  /** BM25 with the statistics of all the user's memories; each distinct query term counts once. */
  async textSearch(scope: Scope, query: TextQuery): Promise<Hit[]> {
    const all = [...(this.scoped(scope, "textSearch")?.rows.values() ?? [])];
    const terms = [...new Set(queryTerms(query.text).map(term))];
    if (terms.length === 0 || all.length === 0 || query.k <= 0) return [];
    const avgLength = all.reduce((sum, row) => sum + row.length, 0) / all.length || 1;
    const idf = new Map(
      terms.map((t) => {
        const n = all.filter((row) => row.terms.has(t)).length;
        return [t, Math.log(1 + (all.length - n + 0.5) / (n + 0.5))];
      }),
    );
    const test = filterTest(query.filter);
    const scored: { row: Row; score: number }[] = [];
    for (const row of all) {
      let score = 0;
      for (const t of terms) {
        const tf = row.terms.get(t);
        if (tf)
          score +=
            ((idf.get(t) as number) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * row.length) / avgLength));
      }
      if (score > 0 && test(row.record)) scored.push({ row, score });
    }
    return ranked(scored, query.k);
  }

  /** Exact cosine similarity against every vector of the query's dimension that the filter admits. */
  async vectorSearch(scope: Scope, query: VectorQuery): Promise<Hit[]> {
    return ranked(this.similarities(scope, "vectorSearch", query), query.k);
  }

  async vectorStats(scope: Scope, query: VectorQuery): Promise<VectorStats | null> {
    const scores = this.similarities(scope, "vectorStats", query).map((s) => s.score);
    if (scores.length === 0) return null;
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
    const variance = scores.reduce((sum, s) => sum + (s - mean) ** 2, 0) / scores.length;
    return { mean, sd: Math.sqrt(variance), count: scores.length };
  }

  private similarities(scope: Scope, operation: string, query: VectorQuery): { row: Row; score: number }[] {
    return this.matching(scope, operation, query.filter).flatMap((row) =>
      row.vector && row.vector.length === query.vector.length
        ? [{ row, score: cosine(query.vector, row.vector) }]
        : [],
    );
  }

  async history(scope: Scope, memoryId: string): Promise<MemoryVersion[]> {
    const versions = this.scoped(scope, "history")?.history.get(memoryId);
    return [...(versions?.values() ?? [])].sort(byVersion).map(copy);
  }

  async edges(scope: Scope, query: EdgeQuery): Promise<MemoryEdge[]> {
    const edges = this.scoped(scope, "edges")?.edges;
    const targets =
      query.to === undefined ? null : new Set(typeof query.to === "string" ? [query.to] : query.to);
    return [...(edges?.values() ?? [])]
      .filter(
        (e) =>
          (query.from === undefined || e.from === query.from) &&
          (targets === null || targets.has(e.to)) &&
          (query.type === undefined || e.type === query.type),
      )
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map(copy);
  }

  async kvGet(scope: Scope, namespace: readonly string[], key: string): Promise<KvEntry | null> {
    const entry = this.scoped(scope, "kvGet")?.kv.get(kvKey(namespace, key));
    return entry ? copy(entry) : null;
  }

  async kvList(scope: Scope, options: KvListOptions = {}): Promise<KvEntry[]> {
    const prefix = options.prefix ?? [];
    const entries = [...(this.scoped(scope, "kvList")?.kv.values() ?? [])].filter((e) =>
      prefix.every((part, i) => e.namespace[i] === part),
    );
    return page(entries.sort(byNamespaceAndKey), options.limit, options.offset).map(copy);
  }

  async claimJobs(options: ClaimOptions): Promise<Job[]> {
    this.open("claimJobs");
    return this.queue.claim(options);
  }

  async renewJob(jobId: string, attempt: number, leaseUntil: string): Promise<boolean> {
    this.open("renewJob");
    return this.queue.renew(jobId, attempt, leaseUntil);
  }

  async completeJob(jobId: string, attempt?: number): Promise<void> {
    this.open("completeJob");
    this.queue.complete(jobId, attempt);
  }

  async failJob(jobId: string, error: string, retryAt: string | null, attempt?: number): Promise<void> {
    this.open("failJob");
    this.queue.fail(jobId, error, retryAt, attempt);
  }

  async jobs(scope: Scope, status?: JobStatus): Promise<Job[]> {
    this.scoped(scope, "jobs");
    return this.queue.list(scope.userId, status);
  }

  async forgetUser(scope: Scope): Promise<ForgetReport> {
    const state = this.scoped(scope, "forgetUser");
    const jobs = this.queue.forget(scope.userId);
    for (const id of state?.rows.keys() ?? []) this.owners.delete(id);
    this.users_.delete(scope.userId);
    return {
      memories: state?.rows.size ?? 0,
      history: [...(state?.history.values() ?? [])].reduce((sum, v) => sum + v.size, 0),
      edges: state?.edges.size ?? 0,
      kv: state?.kv.size ?? 0,
      jobs,
      // The structures that held the user are dropped: no copy is left for the store to erase.
      erasure: { state: "erased" },
    };
  }

  async completeErasure(_waitMs: number): Promise<Erasure> {
    this.open("completeErasure");
    return { state: "erased" };
  }

  async users(): Promise<string[]> {
    this.open("users");
    const users = new Set<string>();
    for (const [userId, state] of this.users_) if (state.rows.size || state.kv.size) users.add(userId);
    for (const userId of this.queue.users()) users.add(userId);
    return [...users].sort();
  }

  async readSetting(name: string): Promise<string | null> {
    this.open("readSetting");
    return this.settings.get(name) ?? null;
  }

  async writeSetting(name: string, value: string | null): Promise<void> {
    this.open("writeSetting");
    if (value === null) this.settings.delete(name);
    else this.settings.set(name, value);
  }

  async stats(scope?: Scope): Promise<StorageStats> {
    if (scope !== undefined) assertScope(scope, "stats");
    this.open("stats");
    const states = scope
      ? [this.users_.get(scope.userId)].filter((s): s is UserState => s !== undefined)
      : [...this.users_.values()];
    const byKind: Record<string, number> = {};
    const byTier: Record<string, number> = {};
    let memories = 0;
    let vectors = 0;
    let history = 0;
    let edges = 0;
    let kv = 0;
    for (const state of states) {
      for (const { record, vector } of state.rows.values()) {
        memories++;
        byKind[record.kind] = (byKind[record.kind] ?? 0) + 1;
        byTier[record.tier] = (byTier[record.tier] ?? 0) + 1;
        if (vector) vectors++;
      }
      for (const versions of state.history.values()) history += versions.size;
      edges += state.edges.size;
      kv += state.kv.size;
    }
    const jobs = this.queue.counts(scope?.userId);
    const users = scope
      ? Number(memories + kv + Object.values(jobs).reduce((a, b) => a + b, 0) > 0)
      : (await this.users()).length;
    return { memories, byKind, byTier, vectors, history, edges, kv, jobs, users };
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** An empty in-memory store (see `MemoryStorage`): nothing outlives the process. */
export function memoryStorage(): MemoryStorage {
  return new MemoryStorage();
}
