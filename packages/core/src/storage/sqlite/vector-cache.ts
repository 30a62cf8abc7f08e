import type Database from "better-sqlite3";
import type { Hit, MemoryFilter, VectorQuery, VectorStats } from "../storage-port.js";
import { filterToSql, needsSqlPrefilter } from "./filter-sql.js";
import { setRecent } from "./recent.js";
import { blobToVector } from "./row-mapping.js";
import { ScopeVectors } from "./scope-vectors.js";
import type { VectorAttrs, VectorFilter } from "./user-vectors.js";

/** Searches whose statistics are kept for vectorStats (retrieval runs several searches concurrently). */
const RECENT_SEARCHES = 8;

/** Per-user in-memory vector sets, loaded on first search and kept current by this connection's writes. */
export class VectorCache {
  private readonly users = new Map<string, ScopeVectors>();
  /** Recent searches' whole-scope statistics by (user, filter); cleared by any change to the vectors. */
  private readonly recent = new Map<string, { vector: Float32Array; stats: VectorStats | null }>();

  constructor(private readonly db: Database.Database) {}

  search(userId: string, query: VectorQuery): Hit[] {
    const vectors = this.load(userId, query.vector.length);
    if (!vectors) return [];
    const { hits, stats } = vectors.searchWithStats(
      query.vector,
      query.k,
      this.acceptor(userId, query.filter),
      query.filter?.kinds,
      query.approximateK,
    );
    const key = JSON.stringify([userId, query.filter ?? {}]);
    setRecent(this.recent, key, { vector: query.vector, stats }, RECENT_SEARCHES);
    return hits;
  }

  /**
   * The statistics of a recent search with the same query (one scan serves both; retrieval runs several
   * searches concurrently), else a new scan.
   */
  stats(userId: string, query: VectorQuery): VectorStats | null {
    const recent = this.recent.get(JSON.stringify([userId, query.filter ?? {}]));
    if (recent && recent.vector === query.vector) return recent.stats;
    const vectors = this.load(userId, query.vector.length);
    return vectors
      ? vectors.stats(query.vector, this.acceptor(userId, query.filter), query.filter?.kinds)
      : null;
  }

  /**
   * The vector filter for a storage filter. Kinds pick the per-kind sets; tiers and currency are tested
   * on cached attributes; anything else is resolved in SQL to the allowed ids, searched directly.
   */
  private acceptor(userId: string, filter: MemoryFilter = {}): VectorFilter {
    const tiers = filter.tiers ? new Set<string>(filter.tiers) : null;
    // Ids alone need no SQL: the cache holds this user's vectors only, and an id it lacks matches nothing.
    const { ids, ...rest } = filter;
    const allowed = needsSqlPrefilter(rest) ? this.allowedIds(userId, filter) : ids ? new Set(ids) : null;
    return {
      ...(tiers ? { accept: (attrs: VectorAttrs) => tiers.has(attrs.tier) } : {}),
      ...(filter.current ? { current: true } : {}),
      ...(allowed ? { ids: allowed } : {}),
    };
  }

  /** Copies of the loaded vectors of these ids (none when the user is not loaded). */
  copies(userId: string, ids: readonly string[]): Map<string, Float32Array> {
    const out = new Map<string, Float32Array>();
    const vectors = this.users.get(userId);
    if (!vectors) return out;
    for (const id of ids) {
      const vector = vectors.vectorOf(id);
      if (vector) out.set(id, vector);
    }
    return out;
  }

  /** Applies a committed write to a loaded user; unloaded users are read fresh on their next search. */
  apply(
    userId: string,
    upserts: { id: string; kind: string; tier: string; expired: boolean; vector: Float32Array | null }[],
    removed: readonly string[],
  ): void {
    this.recent.clear();
    const vectors = this.users.get(userId);
    if (!vectors) return;
    for (const id of removed) vectors.remove(id);
    for (const u of upserts) {
      if (u.vector) vectors.upsert({ ...u, vector: u.vector });
      else vectors.remove(u.id);
    }
  }

  drop(userId?: string): void {
    this.recent.clear();
    if (userId === undefined) this.users.clear();
    else this.users.delete(userId);
  }

  private load(userId: string, dim: number): ScopeVectors | null {
    const cached = this.users.get(userId);
    if (cached && cached.dim === dim) return cached;
    const rows = this.db
      .prepare(
        `SELECT m.id, m.kind, m.tier, m.expired_at, v.embedding FROM memories m JOIN vectors v ON v.rowid = m.rowid
         WHERE m.user_id = ? ORDER BY m.rowid`,
      )
      .all(userId) as {
      id: string;
      kind: string;
      tier: string;
      expired_at: string | null;
      embedding: Buffer;
    }[];
    if (rows.length === 0) return null;
    const vectors = new ScopeVectors(dim);
    for (const r of rows) {
      const vector = blobToVector(r.embedding);
      vectors.upsert({ id: r.id, kind: r.kind, tier: r.tier, expired: r.expired_at !== null, vector });
    }
    this.users.set(userId, vectors);
    return vectors;
  }

  private allowedIds(userId: string, filter: MemoryFilter): Set<string> {
    const where = filterToSql(userId, filter);
    const rows = this.db.prepare(`SELECT m.id AS id FROM memories m WHERE ${where.sql}`).all(...where.params);
    return new Set((rows as { id: string }[]).map((r) => r.id));
  }
}
