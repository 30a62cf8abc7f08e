import type Database from "better-sqlite3";
import type { CommittedWrite, Remembered } from "./remembered.js";

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

/** Users (and ranges) whose blocks (and last rows) are remembered; past this the memory starts over. */
const REMEMBERED = 8192;

/**
 * Allocates rowids in (user, kind) blocks and lists a scope's ranges; allocation runs inside the caller's
 * transaction. Reads remember each user's blocks and each range's last rowid: allocating forgets what it
 * changes, and `changed()` forgets everything (another connection wrote, or a user was forgotten).
 */
export class RowBlocks implements Remembered {
  private readonly s;
  /** Each remembered user's blocks, in block order, with their kinds. */
  private readonly userBlocks = new Map<string, { kind: string; block: number }[]>();
  /** Each remembered range's last rowid (null: empty), by the range's first rowid. */
  private readonly lastRows = new Map<number, number | null>();

  constructor(db: Database.Database) {
    this.s = {
      latest: db.prepare("SELECT max(block) FROM row_blocks WHERE user_id = ? AND kind = ?").pluck(),
      ofUser: db.prepare("SELECT kind, block FROM row_blocks WHERE user_id = ? ORDER BY block").raw(),
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
      // The caller inserts the row: the range's remembered last row is past.
      this.lastRows.delete(lo);
      if (last === null) return lo;
      if (last < hi) return last + 1;
    }
    const block = ((this.s.maxBlock.get() as number | null) ?? 0) + 1;
    if (block > MAX_BLOCK) throw new RangeError("row blocks exhausted");
    this.s.add.run(userId, kind, block);
    this.userBlocks.delete(userId);
    this.lastRows.delete(rangeOf(block).lo);
    return rangeOf(block).lo;
  }

  /** The rowid ranges holding the user's rows of these kinds (every kind when kinds is undefined). */
  ranges(userId: string, kinds?: readonly string[]): RowRange[] {
    let blocks = this.userBlocks.get(userId);
    if (!blocks) {
      blocks = (this.s.ofUser.all(userId) as [string, number][]).map(([kind, block]) => ({ kind, block }));
      if (this.userBlocks.size >= REMEMBERED) this.userBlocks.clear();
      this.userBlocks.set(userId, blocks);
    }
    const out: RowRange[] = [];
    // Kind by kind, in the order asked, as the ranges are searched in that order.
    for (const kind of kinds ?? [undefined]) {
      for (const b of blocks) if (kind === undefined || b.kind === kind) out.push(rangeOf(b.block));
    }
    return out;
  }

  /**
   * An upper bound of the rows in these ranges (rowids are handed out in order within a block; a deleted
   * last row may leave the bound above the rows left).
   */
  rowsAtMost(ranges: readonly RowRange[]): number {
    let rows = 0;
    for (const r of ranges) {
      let last = this.lastRows.get(r.lo);
      if (last === undefined) {
        last = this.s.maxRow.get(r.lo, r.hi) as number | null;
        if (this.lastRows.size >= REMEMBERED) this.lastRows.clear();
        this.lastRows.set(r.lo, last);
      }
      if (last !== null) rows += last - r.lo + 1;
    }
    return rows;
  }

  /** Drops the user's blocks (their rows must be gone already); the user id leaves this table too. */
  forget(userId: string): void {
    this.s.forget.run(userId);
    this.changed();
  }

  written({ reindexed }: CommittedWrite): void {
    // A deleted or moved row can leave a range's remembered last row too high, and its rowid is reused.
    if (reindexed.length) this.changed();
  }

  drop(): void {
    this.changed();
  }

  /** Forgets every remembered block and last row: the file was changed other than through `next`. */
  changed(): void {
    this.userBlocks.clear();
    this.lastRows.clear();
  }
}
