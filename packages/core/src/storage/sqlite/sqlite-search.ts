import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import { queryTerms } from "../../model/index.js";
import type { Hit, MemoryFilter, TextQuery, VectorQuery } from "../storage-port.js";
import { filterToSql, needsSqlPrefilter } from "./filter-sql.js";
import { blobToVector } from "./row-mapping.js";
import { UserVectors } from "./user-vectors.js";

/** The full-text token that marks a user's rows, so FTS5 intersects with the scope before ranking. */
export function ownerToken(userId: string): string {
  return `u${createHash("sha256").update(userId).digest("hex").slice(0, 24)}`;
}

/** FTS5 query: the scope's owner token AND any of the query's content words (each quoted, so no syntax). */
export function ftsMatch(userId: string, text: string): string | null {
  const terms = queryTerms(text);
  if (terms.length === 0) return null;
  const any = terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(" OR ");
  return `owner : "${ownerToken(userId)}" AND body : (${any})`;
}

export function textSearch(db: Database.Database, userId: string, query: TextQuery): Hit[] {
  const match = ftsMatch(userId, query.text);
  if (!match) return [];
  const where = filterToSql(userId, query.filter);
  // bm25() is lower-is-better; weight 0 on the owner column so the scope token never affects ranking.
  const rows = db
    .prepare(
      `SELECT m.id AS id, bm25(memories_fts, 0.0, 1.0) AS score
       FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid
       WHERE memories_fts MATCH ? AND ${where.sql}
       ORDER BY score LIMIT ?`,
    )
    .all(match, ...where.params, query.k) as { id: string; score: number }[];
  return rows.map((r) => ({ id: r.id, score: -r.score }));
}

/** Per-user in-memory vector sets, loaded on first search and kept current by this connection's writes. */
export class VectorCache {
  private readonly users = new Map<string, UserVectors>();

  constructor(private readonly db: Database.Database) {}

  search(userId: string, query: VectorQuery): Hit[] {
    const vectors = this.load(userId, query.vector.length);
    if (!vectors) return [];
    const filter: MemoryFilter = query.filter ?? {};
    const allowed = needsSqlPrefilter(filter) ? this.allowedIds(userId, filter) : null;
    const kinds = filter.kinds ? new Set<string>(filter.kinds) : null;
    const tiers = filter.tiers ? new Set<string>(filter.tiers) : null;
    return vectors.search(query.vector, query.k, (attrs, id) => {
      if (kinds && !kinds.has(attrs.kind)) return false;
      if (tiers && !tiers.has(attrs.tier)) return false;
      if (filter.current && attrs.expired) return false;
      return allowed === null || allowed.has(id);
    });
  }

  /** Applies a committed write to a loaded user; unloaded users are read fresh on their next search. */
  apply(
    userId: string,
    upserts: { id: string; kind: string; tier: string; expired: boolean; vector: Float32Array | null }[],
    removed: readonly string[],
  ): void {
    const vectors = this.users.get(userId);
    if (!vectors) return;
    for (const id of removed) vectors.remove(id);
    for (const u of upserts) {
      if (u.vector) vectors.upsert({ ...u, vector: u.vector });
      else vectors.remove(u.id);
    }
  }

  drop(userId?: string): void {
    if (userId === undefined) this.users.clear();
    else this.users.delete(userId);
  }

  private load(userId: string, dim: number): UserVectors | null {
    const cached = this.users.get(userId);
    if (cached && cached.dim === dim) return cached;
    const rows = this.db
      .prepare(
        `SELECT id, kind, tier, expired_at, embedding FROM memories
         WHERE user_id = ? AND embedding IS NOT NULL ORDER BY rowid`,
      )
      .all(userId) as {
      id: string;
      kind: string;
      tier: string;
      expired_at: string | null;
      embedding: Buffer;
    }[];
    if (rows.length === 0) return null;
    const vectors = new UserVectors(dim);
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
