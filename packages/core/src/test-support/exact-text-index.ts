import type Database from "better-sqlite3";
import { queryTerms } from "../model/index.js";
import type { Hit, TextQuery, TextStats } from "../storage/index.js";
import { anyOf, COMMON_SHARE, MIN_SPLIT_ROWS } from "../storage/sqlite/common-terms.js";
import { filterToSql } from "../storage/sqlite/filter-sql.js";
import type { TextIndex } from "../storage/sqlite/full-text-search.js";
import { topStats } from "../storage/sqlite/top-stats.js";

interface Match {
  readonly rowid: number;
  readonly kind: string;
  readonly score: number;
}

/**
 * The exact reference for SQLite's full-text planner: one plain FTS5 query over the whole scope, and the
 * listing rule written out. A term is rare in a kind when at most COMMON_SHARE of the user's rows of that
 * kind hold it, or when those rows are fewer than MIN_SPLIT_ROWS. A match is listed when it holds a rare
 * term, or when no term of the query is rare in its kind; every match counts in the statistics. No ranges, no remembered counts, no widening windows: slow, and plainly right.
 */
export class ExactTextIndex implements TextIndex {
  constructor(private readonly db: Database.Database) {}

  search(userId: string, query: TextQuery): Hit[] {
    const terms = queryTerms(query.text);
    const matches = this.matches(userId, terms, query.filter?.kinds);
    if (matches.length === 0) return [];
    const holders = new Map(terms.map((t) => [t, this.rowsHolding(userId, t)]));
    const rowsOfKind = new Map<string, number>();
    const rareIn = (kind: string, term: string): boolean => {
      let rows = rowsOfKind.get(kind);
      if (rows === undefined) {
        rows = this.db
          .prepare("SELECT count(*) FROM memories WHERE user_id = ? AND kind = ?")
          .pluck()
          .get(userId, kind) as number;
        rowsOfKind.set(kind, rows);
      }
      const holding = (holders.get(term) as Map<string, Set<number>>).get(kind)?.size ?? 0;
      return rows < MIN_SPLIT_ROWS || holding <= Math.ceil(rows * COMMON_SHARE);
    };
    // A match holding a rare term is listed; where every term of the query is common, every match is.
    const listed = matches.filter(
      (m) =>
        terms.every((t) => !rareIn(m.kind, t)) ||
        terms.some((t) => rareIn(m.kind, t) && (holders.get(t)?.get(m.kind)?.has(m.rowid) ?? false)),
    );
    const where = filterToSql(userId, query.filter);
    const passes = new Set(
      this.db
        .prepare(`SELECT m.rowid FROM memories m WHERE ${where.sql}`)
        .pluck()
        .all(...where.params) as number[],
    );
    const ids = this.idsOf(userId);
    return listed
      .filter((m) => passes.has(m.rowid))
      .sort((a, b) => b.score - a.score || a.rowid - b.rowid)
      .slice(0, query.k)
      .map((m) => ({ id: ids.get(m.rowid) as string, score: m.score }));
  }

  stats(userId: string, query: TextQuery): TextStats | null {
    const scores = this.matches(userId, queryTerms(query.text), query.filter?.kinds).map((m) => m.score);
    return topStats([Float64Array.from(scores)], query.statsOver ?? query.k);
  }

  /** Every row of the user (of these kinds) matching any term, with its BM25, higher better. */
  private matches(userId: string, terms: readonly string[], kinds?: readonly string[]): Match[] {
    if (terms.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT f.rowid, m.kind, bm25(memories_fts) FROM memories_fts f JOIN memories m ON m.rowid = f.rowid
         WHERE memories_fts MATCH ? AND m.user_id = ?`,
      )
      .raw()
      .all(anyOf(terms), userId) as [number, string, number][];
    return rows
      .filter(([, kind]) => !kinds || kinds.includes(kind as never))
      .map(([rowid, kind, bm25]) => ({ rowid, kind, score: -bm25 }));
  }

  /** The user's rows holding a term, by kind. */
  private rowsHolding(userId: string, term: string): Map<string, Set<number>> {
    const out = new Map<string, Set<number>>();
    const rows = this.db
      .prepare(
        `SELECT f.rowid, m.kind FROM memories_fts f JOIN memories m ON m.rowid = f.rowid
         WHERE memories_fts MATCH ? AND m.user_id = ?`,
      )
      .raw()
      .all(anyOf([term]), userId) as [number, string][];
    for (const [rowid, kind] of rows) {
      const set = out.get(kind) ?? new Set<number>();
      set.add(rowid);
      out.set(kind, set);
    }
    return out;
  }

  private idsOf(userId: string): Map<number, string> {
    return new Map(
      this.db.prepare("SELECT rowid, id FROM memories WHERE user_id = ?").raw().all(userId) as [
        number,
        string,
      ][],
    );
  }
}
