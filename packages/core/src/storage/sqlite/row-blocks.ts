import type Database from "better-sqlite3";

/**
 * Rows of one user and kind live in contiguous rowid blocks. A full-text query then reaches only the
 * scope's rows through a rowid range, which FTS5 seeks to directly, instead of intersecting with a
 * per-user token: that token matched the whole scope, so its doclist was read, merged and counted for
 * IDF on every query, which cost as much as ranking the query's own terms.
 */
export const BLOCK_BITS = 24;
const BLOCK_SIZE = 2 ** BLOCK_BITS;
/** Block numbers stay small enough that every rowid is a safe JavaScript integer. */
const MAX_BLOCK = 2 ** (53 - BLOCK_BITS) - 1;

export interface RowRange {
  readonly lo: number;
  readonly hi: number;
}

const rangeOf = (block: number): RowRange => ({
  lo: block * BLOCK_SIZE,
  hi: block * BLOCK_SIZE + BLOCK_SIZE - 1,
});

/** Allocates rowids in (user, kind) blocks and lists a scope's ranges; runs inside the caller's transaction. */
export class RowBlocks {
  private readonly s;

  constructor(db: Database.Database) {
    this.s = {
      latest: db.prepare("SELECT max(block) FROM row_blocks WHERE user_id = ? AND kind = ?").pluck(),
      ofKind: db
        .prepare("SELECT block FROM row_blocks WHERE user_id = ? AND kind = ? ORDER BY block")
        .pluck(),
      ofUser: db.prepare("SELECT block FROM row_blocks WHERE user_id = ? ORDER BY block").pluck(),
      maxBlock: db.prepare("SELECT max(block) FROM row_blocks").pluck(),
      add: db.prepare("INSERT INTO row_blocks (user_id, kind, block) VALUES (?, ?, ?)"),
      maxRow: db.prepare("SELECT max(rowid) FROM memories WHERE rowid BETWEEN ? AND ?").pluck(),
      forget: db.prepare("DELETE FROM row_blocks WHERE user_id = ?"),
    };
  }

  /** The rowid for a new row of this user and kind: after the last one in its newest block. */
  next(userId: string, kind: string): number {
    const latest = this.s.latest.get(userId, kind) as number | null;
    if (latest !== null) {
      const { lo, hi } = rangeOf(latest);
      const last = this.s.maxRow.get(lo, hi) as number | null;
      if (last === null) return lo;
      if (last < hi) return last + 1;
    }
    const block = ((this.s.maxBlock.get() as number | null) ?? 0) + 1;
    if (block > MAX_BLOCK) throw new RangeError("row blocks exhausted");
    this.s.add.run(userId, kind, block);
    return rangeOf(block).lo;
  }

  /** The rowid ranges holding the user's rows of these kinds (every kind when kinds is undefined). */
  ranges(userId: string, kinds?: readonly string[]): RowRange[] {
    const blocks = kinds
      ? kinds.flatMap((k) => this.s.ofKind.all(userId, k) as number[])
      : (this.s.ofUser.all(userId) as number[]);
    return blocks.map(rangeOf);
  }

  /** An upper bound of the rows in these ranges (rowids are handed out in order within a block). */
  rowsAtMost(ranges: readonly RowRange[]): number {
    let rows = 0;
    for (const r of ranges) {
      const last = this.s.maxRow.get(r.lo, r.hi) as number | null;
      if (last !== null) rows += last - r.lo + 1;
    }
    return rows;
  }

  /** Drops the user's blocks (their rows must be gone already); the user id leaves this table too. */
  forget(userId: string): void {
    this.s.forget.run(userId);
  }
}
