import type Database from "better-sqlite3";
import { BoundedCache, queryTerms } from "../../model/index.js";
import type { Hit, MemoryFilter, TextQuery, TextStats } from "../storage-port.js";
import { anyOf, CommonTerms, type TermPlan } from "./common-terms.js";
import { filterToSql } from "./filter-sql.js";
import { KnownRows } from "./known-rows.js";
import type { Prepare } from "./prepare.js";
import type { CommittedWrite, Remembered } from "./remembered.js";
import { BLOCK_BITS, type RowBlocks, type RowRange } from "./row-blocks.js";
import { topStats } from "./top-stats.js";

/** FTS5 query: any of the query's content words, each quoted so no FTS5 syntax reaches the engine. */
export function ftsMatch(text: string): string | null {
  const terms = queryTerms(text);
  if (terms.length === 0) return null;
  return anyOf(terms);
}

/** Which rows of a range (by offset from its start) are among the given rowids. */
function marks(range: RowRange, rows: number, rowids: readonly number[]): Uint8Array {
  const marked = new Uint8Array(rows);
  for (const rowid of rowids) if (rowid >= range.lo && rowid < range.lo + rows) marked[rowid - range.lo] = 1;
  return marked;
}

/** The span of the given rowids inside a range, or null when none is in it. */
function spanWithin(range: RowRange, rowids: readonly number[]): RowRange | null {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const id of rowids) {
    if (id < range.lo || id > range.hi) continue;
    lo = Math.min(lo, id);
    hi = Math.max(hi, id);
  }
  return lo <= hi ? { lo, hi } : null;
}

/**
 * A user's full-text index as the storage asks it. `FullTextSearch` is the planner over FTS5;
 * src/test-support/exact-text-index.ts is the plain FTS5 reference that
 * storage/sqlite/accelerators.property.test.ts holds it to.
 */
export interface TextIndex {
  /** The best k matches by BM25 (higher is better) that pass the filter. */
  search(userId: string, query: TextQuery): Hit[];
  /** Mean, deviation and floor of the best `statsOver` (else k) scores of every match in the kinds searched. */
  stats(userId: string, query: TextQuery): TextStats | null;
}

/** One range's rows matching the query, with their BM25 (higher is better). */
interface RangeMatches {
  /** Rows that may be listed: those matching a rare term (every match when no term is rare). */
  readonly listed: [rowid: number, score: number][];
  /** Every match's score, for the channel's statistics (the best n when not complete). */
  readonly all: Float64Array;
  /** False when FTS5 was asked for its best n only and had more. */
  readonly complete: boolean;
}

/**
 * BM25 top-k within the scope. FTS5 scores the matches inside each of the scope's rowid ranges (one per
 * kind block), seeking straight to them, and only the best are joined and filtered, the window widening
 * while filtering leaves fewer than k. BM25's statistics are the whole index's, so scores from different
 * ranges compare.
 *
 * In a range of 32 rows or more, terms common there (in more than 5% of its rows: a speaker's name in a
 * long conversation) are not given to FTS5: their part of each row's BM25 is remembered per range
 * (`common-terms.ts`) and added to FTS5's score for the rare terms, so every match gets its whole score
 * while FTS5 ranks only the rows holding a rare term. A remembered part is retaken once the range or the
 * index has grown by 5%: until then BM25's statistics in it lag a little behind the index's. A row whose only matches are common terms is not
 * listed (a name said in half the conversation is no evidence on its own), but its score counts in the
 * channel's statistics, which `textStats` gives the fusion: mean, deviation and floor over the best
 * `statsOver` scores of every match.
 */
export class FullTextSearch implements TextIndex, Remembered {
  private readonly common: CommonTerms;
  private readonly ranked: Database.Statement;
  private readonly matches: Database.Statement;
  /** Recent searches' match scores, for textStats (retrieval runs several searches concurrently). */
  private readonly recent = new BoundedCache<string, Float64Array[]>(RECENT_SEARCHES);
  private lastSplit: { key: string; scores: SplitScores } | null = null;
  private readonly known: KnownRows;
  /** Per-row scratch space of a range's split ranking, grown as needed; zero between calls. */
  private sum = new Float64Array(0);
  private mark = new Uint8Array(0);
  private touched = new Int32Array(0);

  /** @param prepare the storage's cache of prepared statements, for the per-filter joins. */
  constructor(
    db: Database.Database,
    private readonly blocks: RowBlocks,
    private readonly prepare: Prepare,
  ) {
    this.common = new CommonTerms(db);
    const select = `SELECT rowid, bm25(memories_fts) AS score FROM memories_fts
       WHERE memories_fts MATCH @match AND rowid BETWEEN @lo AND @hi`;
    // SQLite's own sorter keeps the best `n` (a bounded heap): FTS5 does not take this ORDER BY.
    this.ranked = db.prepare(`${select} ORDER BY score, rowid LIMIT @n`).raw();
    this.matches = db.prepare(select).raw();
    this.known = new KnownRows(db, prepare);
  }

  search(userId: string, query: TextQuery): Hit[] {
    const key = statsKey(userId, query);
    const terms = queryTerms(query.text);
    const ids = query.filter?.ids;
    const ranges = terms.length ? this.blocks.ranges(userId, query.filter?.kinds) : [];
    const wanted = ids && ranges.length ? this.known.rowids(userId, ids, this.blocks.ranges(userId)) : null;
    const indexRows = ranges.length ? this.common.indexRows() : 0;
    // Per kind block: the block itself when it splits its terms (an id filter then keeps the wanted rows
    // of its matches), else the span of the wanted rows in it, ranked by one FTS5 query.
    const plans = ranges.length
      ? ranges.flatMap((range) => {
          const rows = this.blocks.rowsAtMost([range]);
          const plan = this.common.plan(range, rows, indexRows, terms);
          if (plan.remembered.size > 0) {
            return [{ range, rows, plan, only: wanted ? marks(range, rows, wanted) : null }];
          }
          const span = wanted ? spanWithin(range, wanted) : range;
          return span ? [{ range: span, rows, plan, only: null }] : [];
        })
      : [];
    if (plans.length === 0) {
      this.recent.set(key, []);
      return [];
    }
    const match = (p: (typeof plans)[number], n: number) =>
      p.plan.remembered.size > 0
        ? this.splitMatches(p.range, p.rows, indexRows, terms, p.plan, p.only)
        : this.rankedMatches(p.range, terms, n);
    let window = query.k + 16;
    // The first pass also keeps the best `statsOver` scores of each range, for textStats.
    let perRange = plans.map((plan) => match(plan, Math.max(window, query.statsOver ?? 0)));
    this.recent.set(
      key,
      perRange.map((m) => m.all),
    );
    // Rows listed under an id filter by the split are the wanted ones already: the join need not test ids.
    const idsTested = plans.every((p) => p.only !== null) && query.filter ? { ...query.filter } : null;
    if (idsTested) delete (idsTested as { ids?: unknown }).ids;
    const keep = this.keeper(userId, idsTested ?? query.filter);
    const within = this.timeBounded(userId, query.filter);
    for (;;) {
      let listed =
        perRange.length === 1 ? (perRange[0] as RangeMatches).listed : perRange.flatMap((m) => m.listed);
      if (perRange.length > 1) listed.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
      if (within) listed = listed.filter((hit) => within.has(hit[0]));
      const hits = listed.slice(0, window);
      const ids = keep(hits.map((h) => h[0]));
      const out: Hit[] = [];
      for (const [rowid, score] of hits) {
        const id = ids.get(rowid);
        if (id !== undefined) out.push({ id, score });
        if (out.length === query.k) break;
      }
      // Enough hits, or every match has been looked at.
      if (out.length === query.k || (hits.length === listed.length && perRange.every((m) => m.complete))) {
        return out;
      }
      window *= 4;
      perRange = perRange.map((m, i) => (m.complete ? m : match(plans[i] as (typeof plans)[number], window)));
    }
  }

  /**
   * Which of the listed rows pass the filter, with their ids. Under a filter of kinds and currency alone
   * (retrieval's), the rows' ids and expiry come from memory (`KnownRows`): the kinds are those of the
   * ranges searched, and a row's user is that of its range. Otherwise the rows are joined with `memories`
   * under the filter's SQL.
   */
  private keeper(
    userId: string,
    filter: MemoryFilter | undefined,
  ): (rowids: number[]) => Map<number, string> {
    const simple = Object.entries(filter ?? {}).every(
      ([name, value]) => value === undefined || name === "kinds" || name === "current",
    );
    if (simple) {
      const current = filter?.current === true;
      return (rowids) => {
        const known = this.known.rows(userId, rowids);
        const ids = new Map<number, string>();
        for (const rowid of rowids) {
          const row = known.get(rowid);
          if (row && !(current && row.expired)) ids.set(rowid, row.id);
        }
        return ids;
      };
    }
    const where = filterToSql(userId, filter);
    // CROSS JOIN keeps SQLite iterating the few ranked rowids, not the user's whole index.
    const kept = this.prepare(
      `SELECT m.rowid, m.id FROM json_each(?) AS j CROSS JOIN memories m ON m.rowid = j.value WHERE ${where.sql}`,
    ).raw();
    return (rowids) => new Map(kept.all(JSON.stringify(rowids), ...where.params) as [number, string][]);
  }

  /**
   * Under a time window (`from`/`to`, as the time channel sets), the rowids of the user's rows that pass
   * the filter, read by a seek on the user's time index; null without a window, or when more than
   * TIME_BOUNDED_ROWS pass. Matches outside it are then dropped before the join instead of joined and
   * refused in ever wider windows: a month of a 100,000-memory history is a few thousand rows, and the
   * terms of its question match tens of thousands outside it.
   */
  private timeBounded(userId: string, filter: MemoryFilter | undefined): Set<number> | null {
    if (!filter || (filter.from === undefined && filter.to === undefined)) return null;
    const where = filterToSql(userId, filter);
    const rows = this.prepare(`SELECT m.rowid FROM memories m WHERE ${where.sql} LIMIT ?`)
      .pluck()
      .all(...where.params, TIME_BOUNDED_ROWS + 1) as number[];
    return rows.length > TIME_BOUNDED_ROWS ? null : new Set(rows);
  }

  /** Statistics over the best `statsOver` (else k) scores of the search just made with this query. */
  stats(userId: string, query: TextQuery): TextStats | null {
    const key = statsKey(userId, query);
    if (!this.recent.has(key)) this.search(userId, query);
    return topStats(this.recent.get(key) ?? [], query.statsOver ?? query.k);
  }

  /** After a user's write: the rows it re-indexed or deleted, and the records it wrote. */
  written({ userId, reindexed, written }: CommittedWrite): void {
    this.common.written();
    if (reindexed.length) {
      this.common.invalidate(reindexed, blockStart);
      this.known.forget();
    }
    // A record written in place (expired, moved between tiers) keeps its rowid: its row is read again.
    this.known.written(
      userId,
      written.map((r) => r.id),
    );
    this.recent.clear();
    this.lastSplit = null;
  }

  /** Forgets everything remembered (another connection wrote, or a user was forgotten). */
  drop(): void {
    this.common.drop();
    this.known.forget();
    this.recent.clear();
    this.lastSplit = null;
  }

  /** A range ranked by one FTS5 query, SQLite keeping its best n. */
  private rankedMatches(range: RowRange, terms: readonly string[], n: number): RangeMatches {
    const found = this.ranked.all({ match: anyOf(terms), lo: range.lo, hi: range.hi, n }) as [
      number,
      number,
    ][];
    const all = new Float64Array(found.length);
    for (let i = 0; i < found.length; i++) {
      const f = found[i] as [number, number];
      f[1] = -f[1];
      all[i] = f[1];
    }
    return { listed: found, all, complete: found.length < n };
  }

  /**
   * A range whose common terms are remembered: FTS5 scores the rare terms, the common terms' parts are
   * added, and every match is kept (only those in `only` when given), listed when it holds a rare term.
   */
  private splitMatches(
    range: RowRange,
    rows: number,
    indexRows: number,
    terms: readonly string[],
    plan: TermPlan,
    only: Uint8Array | null,
  ): RangeMatches {
    // Only a search restricted to some ids (retrieval's second one) reuses the previous search's scores.
    const scored = this.scoreSplit(range, rows, indexRows, terms, plan, only !== null);
    if (!only) return { listed: scored.listed, all: scored.scores, complete: true };
    const all = new Float64Array(scored.offsets.length);
    let kept = 0;
    for (let i = 0; i < scored.offsets.length; i++) {
      if (only[scored.offsets[i] as number]) all[kept++] = scored.scores[i] as number;
    }
    const listed: [number, number][] = [];
    for (const hit of scored.listed) if (only[hit[0] - range.lo]) listed.push(hit);
    return {
      listed,
      all: all.subarray(0, kept),
      complete: true,
    };
  }

  /**
   * Every match of the range with its score, and whether it is listed (holds a rare term; with no rare
   * term, every match). The last result is kept until the next write, for `reuse`: retrieval ranks the
   * same query over the same messages twice (all of them, then those of the best segments).
   */
  private scoreSplit(
    range: RowRange,
    rows: number,
    indexRows: number,
    terms: readonly string[],
    plan: TermPlan,
    reuse: boolean,
  ): SplitScores {
    const key = JSON.stringify([range.lo, rows, indexRows, terms]);
    if (reuse && this.lastSplit?.key === key) return this.lastSplit.scores;
    const ranked = terms.filter((t) => !plan.remembered.has(t));
    if (this.sum.length < rows) {
      this.sum = new Float64Array(rows);
      this.mark = new Uint8Array(rows);
      this.touched = new Int32Array(rows);
    }
    const { sum, mark, touched } = this;
    // mark: 0 no match, 1 common terms only, 2 a rare term.
    let matched = 0;
    try {
      if (ranked.length) {
        for (const [rowid, bm25] of this.matches.all({
          match: anyOf(ranked),
          lo: range.lo,
          hi: range.hi,
        }) as [number, number][]) {
          const offset = rowid - range.lo;
          sum[offset] = -bm25;
          mark[offset] = 2;
          touched[matched++] = offset;
        }
      }
      for (const term of plan.remembered) {
        const part = this.common.scores(range, rows, indexRows, term);
        const termMark = plan.common.has(term) ? 1 : 2;
        for (let i = 0; i < part.offsets.length; i++) {
          const offset = part.offsets[i] as number;
          sum[offset] = (sum[offset] as number) + (part.scores[i] as number);
          if (mark[offset] === 0) touched[matched++] = offset;
          if ((mark[offset] as number) < termMark) mark[offset] = termMark;
        }
      }
      // Listed: rows holding a term rare in the range; with no such term, every match.
      const listedMark = terms.some((t) => !plan.common.has(t)) ? 2 : 1;
      const scores: SplitScores = {
        offsets: touched.slice(0, matched),
        scores: new Float64Array(matched),
        listed: [],
      };
      for (let i = 0; i < matched; i++) {
        const offset = touched[i] as number;
        const score = sum[offset] as number;
        scores.scores[i] = score;
        if ((mark[offset] as number) >= listedMark) scores.listed.push([range.lo + offset, score]);
      }
      scores.listed.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
      this.lastSplit = { key, scores };
      return scores;
    } finally {
      // Leave the scratch space zeroed for the next call, even after a failed query.
      for (let i = 0; i < matched; i++) {
        const offset = touched[i] as number;
        sum[offset] = 0;
        mark[offset] = 0;
      }
    }
  }
}

/** A range's matches under the split: offsets from range.lo and scores; the listed ones, best first. */
interface SplitScores {
  readonly offsets: Int32Array;
  readonly scores: Float64Array;
  readonly listed: [rowid: number, score: number][];
}

/** The most rows a time window may hold for its rowids to be read up front (`timeBounded`). */
const TIME_BOUNDED_ROWS = 4096;

/** Searches whose match scores are kept for textStats. */
const RECENT_SEARCHES = 8;

const statsKey = (userId: string, query: TextQuery): string =>
  JSON.stringify([userId, query.text, query.filter ?? {}, query.statsOver ?? query.k]);

/** Start of the rowid block holding a rowid. */
const blockStart = (rowid: number): number => Math.floor(rowid / 2 ** BLOCK_BITS) * 2 ** BLOCK_BITS;
