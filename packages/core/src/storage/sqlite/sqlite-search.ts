import type Database from "better-sqlite3";
import { queryTerms } from "../../model/index.js";
import type { Hit, MemoryFilter, TextQuery, VectorQuery, VectorStats } from "../storage-port.js";
import { filterToSql, needsSqlPrefilter } from "./filter-sql.js";
import type { RowBlocks, RowRange } from "./row-blocks.js";
import { blobToVector } from "./row-mapping.js";
import { ScopeVectors } from "./scope-vectors.js";
import type { VectorAttrs, VectorFilter } from "./user-vectors.js";

/** FTS5 query: any of the query's content words, each quoted so no FTS5 syntax reaches the engine. */
export function ftsMatch(text: string): string | null {
  const terms = queryTerms(text);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(" OR ");
}

/**
 * With an id filter, each range shrinks to the span of the wanted rows inside it (ranges without any are
 * dropped): FTS5 then ranks a few neighbouring rows, such as one segment's pages, not the whole block.
 */
function narrowToIds(
  db: Database.Database,
  userId: string,
  ranges: RowRange[],
  ids: readonly string[] | undefined,
): RowRange[] {
  if (!ids) return ranges;
  const rowids = db
    .prepare("SELECT rowid FROM memories WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))")
    .pluck()
    .all(userId, JSON.stringify(ids)) as number[];
  return ranges.flatMap((r) => {
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (const id of rowids) {
      if (id < r.lo || id > r.hi) continue;
      lo = Math.min(lo, id);
      hi = Math.max(hi, id);
    }
    return lo <= hi ? [{ lo, hi }] : [];
  });
}

/**
 * BM25 top-k within the scope. FTS5 scores the matches inside each of the scope's rowid ranges (one per
 * kind block), seeking straight to them; SQLite keeps the best of each range, and only those are joined
 * and filtered, the window widening while filtering leaves fewer than k. FTS5's own `ORDER BY rank` is
 * not used: its sorted plan scores every match in the table before applying the rowid range. BM25's
 * statistics are the whole index's, so scores from different ranges compare.
 */
export function textSearch(
  db: Database.Database,
  blocks: RowBlocks,
  userId: string,
  query: TextQuery,
): Hit[] {
  const match = ftsMatch(query.text);
  if (!match) return [];
  const ranges = narrowToIds(db, userId, blocks.ranges(userId, query.filter?.kinds), query.filter?.ids);
  if (ranges.length === 0) return [];
  // SQLite's own sorter keeps the best `window` (a bounded heap): FTS5 does not take this ORDER BY.
  const best = db
    .prepare(
      `SELECT rowid, bm25(memories_fts) AS score FROM memories_fts
       WHERE memories_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY score, rowid LIMIT ?`,
    )
    .raw();
  const where = filterToSql(userId, query.filter);
  // CROSS JOIN keeps SQLite iterating the few ranked rowids, not the user's whole index.
  const kept = db
    .prepare(
      `SELECT m.rowid, m.id FROM json_each(?) AS j CROSS JOIN memories m ON m.rowid = j.value WHERE ${where.sql}`,
    )
    .raw();
  for (let window = query.k + 16; ; window *= 4) {
    const perRange = ranges.map((r) => best.all(match, r.lo, r.hi, window) as [number, number][]);
    // bm25() is lower-is-better: [rowid, bm25] pairs, best first.
    const hits = perRange.length === 1 ? (perRange[0] as [number, number][]) : perRange.flat();
    if (perRange.length > 1) hits.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    const ids = new Map(
      kept.all(JSON.stringify(hits.map((h) => h[0])), ...where.params) as [number, string][],
    );
    const out: Hit[] = [];
    for (const [rowid, rank] of hits) {
      const id = ids.get(rowid);
      if (id !== undefined) out.push({ id, score: -rank });
      if (out.length === query.k) break;
    }
    // Enough hits, or every range returned all of its matches.
    if (out.length === query.k || perRange.every((list) => list.length < window)) return out;
  }
}

/** Per-user in-memory vector sets, loaded on first search and kept current by this connection's writes. */
export class VectorCache {
  private readonly users = new Map<string, ScopeVectors>();
  /** The last search's whole-scope statistics; cleared by any change to the vectors. */
  private last: { userId: string; vector: Float32Array; filter: string; stats: VectorStats | null } | null =
    null;

  constructor(private readonly db: Database.Database) {}

  search(userId: string, query: VectorQuery): Hit[] {
    const vectors = this.load(userId, query.vector.length);
    if (!vectors) return [];
    const { hits, stats } = vectors.searchWithStats(
      query.vector,
      query.k,
      this.acceptor(userId, query.filter),
      query.filter?.kinds,
    );
    this.last = { userId, vector: query.vector, filter: JSON.stringify(query.filter ?? {}), stats };
    return hits;
  }

  /** The statistics of the search just made with the same query (one scan serves both), else a new scan. */
  stats(userId: string, query: VectorQuery): VectorStats | null {
    const last = this.last;
    if (
      last &&
      last.userId === userId &&
      last.vector === query.vector &&
      last.filter === JSON.stringify(query.filter ?? {})
    ) {
      return last.stats;
    }
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
    return {
      ...(tiers ? { accept: (attrs: VectorAttrs) => tiers.has(attrs.tier) } : {}),
      ...(filter.current ? { current: true } : {}),
      ...(needsSqlPrefilter(filter) ? { ids: this.allowedIds(userId, filter) } : {}),
    };
  }

  /** Applies a committed write to a loaded user; unloaded users are read fresh on their next search. */
  apply(
    userId: string,
    upserts: { id: string; kind: string; tier: string; expired: boolean; vector: Float32Array | null }[],
    removed: readonly string[],
  ): void {
    this.last = null;
    const vectors = this.users.get(userId);
    if (!vectors) return;
    for (const id of removed) vectors.remove(id);
    for (const u of upserts) {
      if (u.vector) vectors.upsert({ ...u, vector: u.vector });
      else vectors.remove(u.id);
    }
  }

  drop(userId?: string): void {
    this.last = null;
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
