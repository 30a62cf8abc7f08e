import type Database from "better-sqlite3";
import type { RowRange } from "./row-blocks.js";

/** A query term found in more than this share of a range's rows is common there. */
export const COMMON_SHARE = 0.05;
/**
 * Ranges with fewer rows are ranked whole by one FTS5 query. Splitting pays off well below the sizes
 * where scoring every match costs much, because FTS5 computes each phrase's IDF by reading its doclist
 * over the whole index: a term common there costs a small range as much as a large one.
 */
export const MIN_SPLIT_ROWS = 32;
/**
 * A term in more rows than this across the whole index is remembered in every range it is searched in,
 * common there or not. FTS5 reads a term's whole doclist to compute its IDF and scores every row in the
 * range that holds it, on every query: such a term costs a query over a dozen facts nearly as much as one
 * over thousands of messages, while a remembered part costs one addition per row of the range. Only the
 * rarest terms, whose doclists are a few entries long, are left to FTS5.
 */
export const WIDESPREAD_ROWS = 16;
/** Remembered counts and scores are retaken once the range or the whole index has grown this much. */
const DRIFT = 0.05;
/** Bound on the terms remembered per range. */
const MAX_TERMS = 4096;
/**
 * Bound on the remembered parts over all ranges (12 bytes each: about 24 MiB): the least recently used
 * ranges are forgotten first, never the one in use.
 */
const MAX_PARTS = 2_000_000;

export const quoteTerm = (term: string): string => `"${term.replaceAll('"', '""')}"`;
export const anyOf = (terms: readonly string[]): string => terms.map(quoteTerm).join(" OR ");

/** One common term's BM25 contribution to every row of a range that holds it. */
export interface TermScores {
  /** rowid - range.lo of each row holding the term, ascending. */
  readonly offsets: Int32Array;
  /** The term's part of those rows' BM25 (higher is better), as FTS5's bm25() computes it. */
  readonly scores: Float64Array;
  /** Rows after this rowid are not scored yet. */
  readonly scoredTo: number;
}

interface RangeEntry {
  /** The range's rows, and the index's rows, when the entry was started. */
  readonly rows: number;
  readonly indexRows: number;
  /** Rows of the range holding each term: exact, or an upper bound no larger than the common share. */
  readonly counts: Map<string, number>;
  readonly scores: Map<string, TermScores>;
  /** Remembered parts (rows × terms) in `scores`. */
  parts: number;
}

/** FTS5's row count (what BM25's IDF is computed over): the first varint of its averages record. */
function readIndexRows(db: Database.Database): Database.Statement {
  return db.prepare("SELECT block FROM memories_fts_data WHERE id = 1").pluck();
}

function varint(bytes: Uint8Array): number {
  let value = 0;
  for (let i = 0; i < 8 && i < bytes.length; i++) {
    const b = bytes[i] as number;
    value = value * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) return value;
  }
  return value * 256 + (bytes[8] ?? 0);
}

/** How a query's terms are ranked in one range. */
export interface TermPlan {
  /** Terms in more than COMMON_SHARE of the range's rows: they alone do not list a row. */
  readonly common: ReadonlySet<string>;
  /** Terms whose scores come from memory: the common ones and those widespread in the whole index. */
  readonly remembered: ReadonlySet<string>;
}

/**
 * What the full-text search remembers per rowid range about its frequent terms: how many rows hold each
 * query term (counted up to the threshold) and, for a term common there or widespread in the index, its BM25
 * contribution to every row that holds it. FTS5's BM25 is a sum over the query's phrases, so a row's score
 * for the whole query is FTS5's score for the query's rare terms plus the remembered parts of its other
 * terms: the rare terms are ranked by FTS5 on each query, and the others, which would have FTS5 score
 * many rows every time (a speaker's name in a long conversation matches a large share of the scope), are
 * scored once.
 *
 * Rows appended to the range are scored on the next query; a row re-indexed or deleted in the range
 * drops the range's entry, and so does a write from another connection or a forgotten user (a reused
 * range never keeps a former owner's data). IDF and the average row length move as the index grows: a
 * remembered part keeps the values of when it was scored, and an entry is retaken once the range or the
 * index has changed by 5% since it was started. That bounds the drift of the row counts, not of every
 * part: a term in nearly half the index has an IDF near zero, which a few rows more or less move by a
 * large share of itself, but then its part is small beside a rare term's, and so is the error.
 * The parts of all ranges together are bounded (MAX_PARTS); the least recently searched ranges go first.
 */
export class CommonTerms {
  /** By range start, least recently used first. */
  private readonly ranges = new Map<number, RangeEntry>();
  /** Remembered parts over all ranges. */
  private parts = 0;
  /** Matches of a term over the whole index, counted up to WIDESPREAD_ROWS + 1. */
  private readonly widespread = new Map<string, number>();
  private widespreadIndexRows = 0;
  private readonly count: Database.Statement;
  private readonly countAll: Database.Statement;
  private readonly score: Database.Statement;
  private readonly indexRowsStatement: Database.Statement;
  private knownIndexRows: number | null = null;

  /** @param maxParts bound on the remembered parts over all ranges. */
  constructor(
    db: Database.Database,
    private readonly maxParts = MAX_PARTS,
  ) {
    this.count = db
      .prepare(
        `SELECT count(*) FROM (SELECT 1 FROM memories_fts
         WHERE memories_fts MATCH ? AND rowid BETWEEN ? AND ? LIMIT ?)`,
      )
      .pluck();
    this.countAll = db
      .prepare("SELECT count(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)")
      .pluck();
    this.score = db
      .prepare(
        `SELECT rowid, bm25(memories_fts) FROM memories_fts
         WHERE memories_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rowid`,
      )
      .raw();
    this.indexRowsStatement = readIndexRows(db);
  }

  /** The index's row count, as BM25 uses it; remembered until `written()`. */
  indexRows(): number {
    if (this.knownIndexRows === null) {
      const block = this.indexRowsStatement.get() as Uint8Array | undefined;
      this.knownIndexRows = block ? varint(block) : 0;
    }
    return this.knownIndexRows;
  }

  /** The index was written to: its row count is read again. */
  written(): void {
    this.knownIndexRows = null;
  }

  /**
   * Which of the query's terms are common in the range and which are remembered (none below
   * MIN_SPLIT_ROWS rows), counting each term once per range entry and once over the whole index.
   */
  plan(range: RowRange, rows: number, indexRows: number, terms: readonly string[]): TermPlan {
    const common = new Set<string>();
    const remembered = new Set<string>();
    if (rows < MIN_SPLIT_ROWS) return { common, remembered };
    const entry = this.entry(range, rows, indexRows);
    const cap = Math.ceil(entry.rows * COMMON_SHARE);
    for (const term of terms) {
      const widespread = this.isWidespread(term, indexRows);
      let n = entry.counts.get(term);
      if (n === undefined) {
        if (widespread) {
          // Remembered anyway: its rows in the range are those of its remembered parts.
          n = this.scores(range, rows, indexRows, term).offsets.length;
        } else if (cap >= WIDESPREAD_ROWS) {
          // In at most WIDESPREAD_ROWS rows of the whole index: not common in a range this large.
          n = WIDESPREAD_ROWS;
        } else {
          n = this.count.get(quoteTerm(term), range.lo, range.hi, cap + 1) as number;
        }
        entry.counts.set(term, n);
      }
      if (n > cap) common.add(term);
      if (n > cap || widespread) remembered.add(term);
    }
    return { common, remembered };
  }

  private isWidespread(term: string, indexRows: number): boolean {
    if (
      Math.abs(indexRows - this.widespreadIndexRows) > this.widespreadIndexRows * DRIFT ||
      this.widespread.size > MAX_TERMS
    ) {
      this.widespread.clear();
      this.widespreadIndexRows = indexRows;
    }
    let n = this.widespread.get(term);
    if (n === undefined) {
      n = this.countAll.get(quoteTerm(term), WIDESPREAD_ROWS + 1) as number;
      this.widespread.set(term, n);
    }
    return n > WIDESPREAD_ROWS;
  }

  /** A remembered term's contribution to each row of the range holding it, scoring rows appended since. */
  scores(range: RowRange, rows: number, indexRows: number, term: string): TermScores {
    const entry = this.entry(range, rows, indexRows);
    const last = range.lo + rows - 1;
    const old = entry.scores.get(term) ?? {
      offsets: new Int32Array(0),
      scores: new Float64Array(0),
      scoredTo: range.lo - 1,
    };
    if (old.scoredTo >= last) return old;
    const scores = this.append(old, term, range.lo, last);
    entry.scores.set(term, scores);
    const added = scores.offsets.length - old.offsets.length;
    entry.parts += added;
    this.parts += added;
    if (this.parts > this.maxParts) this.evict(range.lo);
    return scores;
  }

  /** Rows re-indexed or deleted: the entries of their ranges no longer describe them. */
  invalidate(rowids: Iterable<number>, rangeOf: (rowid: number) => number): void {
    for (const rowid of rowids) this.forget(rangeOf(rowid));
  }

  drop(): void {
    this.knownIndexRows = null;
    this.ranges.clear();
    this.parts = 0;
    this.widespread.clear();
  }

  /** Total remembered parts (rows × terms) over all ranges. */
  get rememberedParts(): number {
    return this.parts;
  }

  private forget(lo: number): void {
    const entry = this.ranges.get(lo);
    if (!entry) return;
    this.parts -= entry.parts;
    this.ranges.delete(lo);
  }

  /** Forgets the least recently used ranges until the bound holds (or only the range in use is left). */
  private evict(keep: number): void {
    for (const lo of this.ranges.keys()) {
      if (this.parts <= this.maxParts) return;
      if (lo !== keep) this.forget(lo);
    }
  }

  private append(old: TermScores, term: string, lo: number, to: number): TermScores {
    const rows = this.score.all(quoteTerm(term), old.scoredTo + 1, to) as [number, number][];
    if (rows.length === 0) return { ...old, scoredTo: to };
    const offsets = new Int32Array(old.offsets.length + rows.length);
    const scores = new Float64Array(old.scores.length + rows.length);
    offsets.set(old.offsets);
    scores.set(old.scores);
    rows.forEach(([rowid, bm25], i) => {
      offsets[old.offsets.length + i] = rowid - lo;
      scores[old.scores.length + i] = -bm25;
    });
    return { offsets, scores, scoredTo: to };
  }

  private entry(range: RowRange, rows: number, indexRows: number): RangeEntry {
    let entry = this.ranges.get(range.lo);
    if (
      !entry ||
      rows > entry.rows * (1 + DRIFT) ||
      rows < entry.rows * (1 - DRIFT) ||
      Math.abs(indexRows - entry.indexRows) > entry.indexRows * DRIFT ||
      entry.counts.size > MAX_TERMS
    ) {
      this.forget(range.lo);
      entry = { rows, indexRows, counts: new Map(), scores: new Map(), parts: 0 };
    } else {
      // Moved to the back: the Map's order is the order of last use.
      this.ranges.delete(range.lo);
    }
    this.ranges.set(range.lo, entry);
    return entry;
  }
}
