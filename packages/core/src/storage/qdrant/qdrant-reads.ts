import {
  cubeKey,
  MEMORY_KINDS,
  type MemoryEdge,
  type MemoryRecord,
  type MemoryVersion,
  type Scope,
  TIERS,
} from "../../model/index.js";
import { byNamespaceAndKey, byVersion, page } from "../backend-rules.js";
import type {
  EdgeQuery,
  Hit,
  KvEntry,
  KvListOptions,
  MemoryFilter,
  ScanOptions,
  StorageStats,
  TextQuery,
  VectorQuery,
  VectorStats,
} from "../storage-port.js";
import { JOB_STATUSES } from "../storage-port.js";
import { type HistoryRow, type KvRow, kvRowToEntry, rowToVersion } from "../stored-rows.js";
import type { Collections } from "./collections.js";
import {
  anyOf,
  hasMetadataRange,
  match,
  memoryFilter,
  type QCondition,
  type QFilter,
  scopeCondition,
  selectsNothing,
} from "./filter.js";
import { upgradeNumericMetadata } from "./numeric-metadata.js";
import { type Payload, payloadToEdge, payloadToRecord } from "./payload.js";
import { pointIds } from "./point-id.js";
import type { Point, Points } from "./points.js";
import { queryVector } from "./text-vector.js";
import type { VectorStatsCache } from "./vector-stats.js";

const num = (v: unknown) => (typeof v === "number" ? v : 0);

/** Event time, then system time, then first-write order: the SQLite backend's scan order. */
function byTime(a: Payload, b: Payload): number {
  return (
    num(a.order_ms) - num(b.order_ms) || num(a.created_ms) - num(b.created_ms) || num(a.seq) - num(b.seq)
  );
}

/** The read side of the Qdrant backend: every request carries the scope's tenant condition. */
export class QdrantReads {
  /** The upgrade of points written before `meta_num`, run once before the first metadata range filter. */
  private numeric: Promise<number> | null = null;

  constructor(
    private readonly points: Points,
    private readonly collections: Collections,
    private readonly statsCache: VectorStatsCache,
  ) {}

  /** Before a filter with a metadata range is first read: every point carries its numeric metadata. */
  private async numbersReady(filter: MemoryFilter | undefined): Promise<void> {
    if (!hasMetadataRange(filter)) return;
    this.numeric ??= this.collections
      .refresh()
      .then(() =>
        upgradeNumericMetadata(this.points, [this.names.memories, ...this.collections.vectorCollections()]),
      );
    try {
      await this.numeric;
    } catch (error) {
      this.numeric = null;
      throw error;
    }
  }

  private get names() {
    return this.collections.names;
  }

  async get(scope: Scope, ids: readonly string[]): Promise<MemoryRecord[]> {
    if (ids.length === 0) return [];
    const found = await this.points.byIds(this.names.memories, ids.map(pointIds.memory), memoryFilter(scope));
    const byId = new Map(found.map((p) => [p.payload.memory_id as string, payloadToRecord(p.payload)]));
    return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * Vectors from every vector collection this instance knows; when some ids have none there, the
   * server's collections are listed again and any new vector collection (another process's new
   * embedding size) is read too.
   */
  async getVectors(scope: Scope, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    if (ids.length === 0) return out;
    const known = this.collections.vectorCollections();
    await this.vectorsIn(known, scope, ids, out);
    const missing = [...new Set(ids)].filter((id) => !out.has(id));
    if (missing.length === 0) return out;
    await this.collections.refresh();
    const added = this.collections.vectorCollections().filter((name) => !known.includes(name));
    await this.vectorsIn(added, scope, missing, out);
    return out;
  }

  private async vectorsIn(
    names: readonly string[],
    scope: Scope,
    ids: readonly string[],
    out: Map<string, Float32Array>,
  ): Promise<void> {
    for (const name of names) {
      const found = await this.points.byIds(
        name,
        ids.map(pointIds.memory),
        memoryFilter(scope),
        { include: ["memory_id"] },
        true,
      );
      for (const p of found) out.set(p.payload.memory_id as string, Float32Array.from(p.vector?.dense ?? []));
    }
  }

  async scan(scope: Scope, options: ScanOptions = {}): Promise<MemoryRecord[]> {
    if (selectsNothing(options.filter)) return [];
    await this.numbersReady(options.filter);
    const filter = memoryFilter(scope, options.filter);
    const found =
      options.limit === undefined
        ? await this.points.scroll(this.names.memories, filter)
        : await this.firstByTime(filter, options.order ?? "asc", (options.offset ?? 0) + options.limit);
    const sorted = found.map((p) => p.payload).sort(byTime);
    if (options.order === "desc") sorted.reverse();
    return page(sorted, options.limit, options.offset).map(payloadToRecord);
  }

  /**
   * At least the first `n` memories in time order, without reading the whole scope. Qdrant orders by one
   * field (event time) and breaks ties arbitrarily, so one more is read: if it has another event time than
   * the n-th, every memory tied with the n-th is already in hand; otherwise they are fetched.
   */
  private async firstByTime(filter: QFilter, direction: "asc" | "desc", n: number): Promise<Point[]> {
    const first = await this.points.ordered(this.names.memories, filter, "order_ms", direction, n + 1);
    const boundary = first[n - 1]?.payload.order_ms;
    if (first.length <= n || typeof boundary !== "number" || first[n]?.payload.order_ms !== boundary)
      return first;
    const tied = await this.points.scroll(this.names.memories, {
      ...filter,
      must: [...(filter.must ?? []), { key: "order_ms", range: { gte: boundary, lte: boundary } }],
    });
    const seen = new Set(first.map((p) => p.id));
    return [...first, ...tied.filter((p) => !seen.has(p.id))];
  }

  async count(scope: Scope, filter = {}): Promise<number> {
    if (selectsNothing(filter)) return 0;
    await this.numbersReady(filter);
    return this.points.count(this.names.memories, memoryFilter(scope, filter));
  }

  async textSearch(scope: Scope, query: TextQuery): Promise<Hit[]> {
    const vector = queryVector(query.text);
    if (!vector || query.k <= 0 || selectsNothing(query.filter)) return [];
    await this.numbersReady(query.filter);
    const hits = await this.points.query(
      this.names.memories,
      "bm25",
      vector,
      memoryFilter(scope, query.filter),
      query.k,
    );
    return hits.map((h) => ({ id: h.payload.memory_id as string, score: h.score }));
  }

  async vectorSearch(scope: Scope, query: VectorQuery): Promise<Hit[]> {
    const name = this.names.vectors(query.vector.length);
    if (query.k <= 0 || selectsNothing(query.filter) || !(await this.collections.knows(name))) return [];
    await this.numbersReady(query.filter);
    const filter = memoryFilter(scope, query.filter);
    const hits = await this.points.query(name, "dense", Array.from(query.vector), filter, query.k);
    return hits.map((h) => ({ id: h.payload.memory_id as string, score: h.score }));
  }

  async vectorStats(scope: Scope, query: VectorQuery): Promise<VectorStats | null> {
    const name = this.names.vectors(query.vector.length);
    if (selectsNothing(query.filter) || !(await this.collections.knows(name))) return null;
    await this.numbersReady(query.filter);
    return this.statsCache.stats(name, scope, query);
  }

  async history(scope: Scope, memoryId: string): Promise<MemoryVersion[]> {
    const filter = { must: [scopeCondition(scope), match("memory_id", memoryId)] };
    const found = await this.points.scroll(this.names.history, filter);
    return found.map((p) => rowToVersion(p.payload as unknown as HistoryRow)).sort(byVersion);
  }

  async edges(scope: Scope, query: EdgeQuery): Promise<MemoryEdge[]> {
    const must = [scopeCondition(scope)];
    if (query.from !== undefined) must.push(match("src", query.from));
    if (typeof query.to === "string") must.push(match("dst", query.to));
    else if (query.to !== undefined) {
      if (query.to.length === 0) return [];
      must.push(anyOf("dst", query.to));
    }
    if (query.type !== undefined) must.push(match("type", query.type));
    const found = await this.points.scroll(this.names.edges, { must });
    return found.map((p) => payloadToEdge(p.payload)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async kvGet(scope: Scope, namespace: readonly string[], key: string): Promise<KvEntry | null> {
    const id = pointIds.kv(scope.userId, cubeKey(namespace), key);
    const [point] = await this.points.byIds(this.names.kv, [id], { must: [scopeCondition(scope)] });
    return point ? kvRowToEntry(point.payload as unknown as KvRow) : null;
  }

  async kvList(scope: Scope, options: KvListOptions = {}): Promise<KvEntry[]> {
    const must = [scopeCondition(scope)];
    if (options.prefix?.length) must.push(match("ns_prefixes", cubeKey(options.prefix)));
    const entries = (await this.points.scroll(this.names.kv, { must })).map((p) =>
      kvRowToEntry(p.payload as unknown as KvRow),
    );
    return page(entries.sort(byNamespaceAndKey), options.limit, options.offset);
  }

  /**
   * Users with memories, key-value entries or jobs: the values of the `user_id` index of the three
   * collections (a payload-only scroll of every point on servers before 1.12, which have no facet API).
   */
  async users(): Promise<string[]> {
    const users = new Set<string>();
    for (const name of [this.names.memories, this.names.kv, this.names.jobs]) {
      const ids = this.collections.hasFacet
        ? await this.points.facetValues(name, "user_id")
        : (await this.points.scroll(name, {}, { include: ["user_id"] })).map(
            (p) => p.payload.user_id as string,
          );
      for (const userId of ids) users.add(userId);
    }
    return [...users].sort();
  }

  /** Counts by exact `count` requests; one per kind, tier and job status. */
  async stats(scope?: Scope): Promise<StorageStats> {
    const filter = (...extra: QCondition[]): QFilter => ({
      must: [...(scope ? [scopeCondition(scope)] : []), ...extra],
    });
    const count = (collection: string, ...extra: QCondition[]) =>
      this.points.count(collection, filter(...extra));
    // One exact count per value; sent together, since each is a small request.
    const grouped = async (collection: string, field: string, values: readonly string[]) => {
      const counts = await Promise.all(values.map((v) => count(collection, match(field, v))));
      return Object.fromEntries(values.flatMap((v, i) => (counts[i] ? [[v, counts[i]]] : [])));
    };
    await this.collections.refresh();
    const [byKind, byTier, jobs, vectors, history, edges, kv] = await Promise.all([
      grouped(this.names.memories, "kind", MEMORY_KINDS),
      grouped(this.names.memories, "tier", TIERS),
      grouped(this.names.jobs, "status", JOB_STATUSES),
      Promise.all(this.collections.vectorCollections().map((name) => count(name))),
      count(this.names.history),
      count(this.names.edges),
      count(this.names.kv),
    ]);
    const memories = Object.values(byKind).reduce((a, b) => a + b, 0);
    const jobCount = Object.values(jobs).reduce((a, b) => a + b, 0);
    const users = scope ? Number(memories + kv + jobCount > 0) : (await this.users()).length;
    return {
      memories,
      byKind,
      byTier,
      vectors: vectors.reduce((a, b) => a + b, 0),
      history,
      edges,
      kv,
      jobs,
      users,
    };
  }
}
