import type Database from "better-sqlite3";
import type { Prepare } from "./prepare.js";
import type { RowRange } from "./row-blocks.js";

/** Bound on the ids (and rows) remembered, all users together; past it the memory starts over. */
const MAX_REMEMBERED_IDS = 65_536;

/** A row's id and whether its record is expired. */
export interface KnownRow {
  readonly id: string;
  readonly expired: boolean;
}

/** What is known of one user's rows: only rows inside that user's rowid blocks are ever put here. */
interface UserRows {
  readonly rowidById: Map<string, number>;
  readonly byRowid: Map<number, KnownRow>;
}

const inside = (ranges: readonly RowRange[], rowid: number): boolean =>
  ranges.some((r) => rowid >= r.lo && rowid <= r.hi);

/**
 * What the full-text search knows of rows between searches, as last read, per user: ids' rowids
 * (retrieval asks for the pages of the same segments again and again) and rows' ids and expiry (for
 * listing without a join). Every lookup names its user first and sees only that user's rows: another
 * user's id or rowid is unknown to it, however the caller asks. Every row known by rowid is also known by
 * id, so a record written in place can be forgotten by its id. A rowid changes only when its row is
 * deleted or changes kind, which forgets everything (`forget`).
 */
export class KnownRows {
  private readonly users = new Map<string, UserRows>();
  /** Entries held over all users (ids and rows), for the bound. */
  private size = 0;
  private readonly rowidsStatement: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly prepare: Prepare,
  ) {
    // The id index alone (it holds the rowid): the user's rows are told by their rowid blocks.
    this.rowidsStatement = db
      .prepare("SELECT id, rowid FROM memories WHERE id IN (SELECT value FROM json_each(?))")
      .raw();
  }

  /**
   * The rowids of the user's rows among these ids. `ranges` are all of the user's rowid blocks: an id
   * whose row lies outside them is another user's, and is neither remembered nor returned.
   */
  rowids(userId: string, ids: readonly string[], ranges: readonly RowRange[]): number[] {
    let user = this.user(userId);
    const missing: string[] = [];
    for (const id of ids) if (!user.rowidById.has(id)) missing.push(id);
    if (missing.length) {
      if (this.size + missing.length > MAX_REMEMBERED_IDS) user = this.forget(userId);
      const found = this.rowidsStatement.all(JSON.stringify(missing)) as [string, number][];
      for (const [id, rowid] of found) {
        if (inside(ranges, rowid)) this.size += setNew(user.rowidById, id, rowid);
      }
    }
    const rowids: number[] = [];
    for (const id of ids) {
      const rowid = user.rowidById.get(id);
      if (rowid !== undefined) rowids.push(rowid);
    }
    return rowids;
  }

  /** These rows' ids and expiry: the user's rows only, read for those not known yet. */
  rows(userId: string, rowids: readonly number[]): ReadonlyMap<number, KnownRow> {
    let user = this.user(userId);
    const unknown: number[] = [];
    for (const rowid of rowids) if (!user.byRowid.has(rowid)) unknown.push(rowid);
    if (unknown.length) {
      if (this.size + 2 * unknown.length > MAX_REMEMBERED_IDS) user = this.forget(userId);
      const rows = this.prepare(
        `SELECT m.rowid, m.id, m.expired_at IS NOT NULL FROM json_each(?) AS j
         CROSS JOIN memories m ON m.rowid = j.value WHERE m.user_id = ?`,
      )
        .raw()
        .all(JSON.stringify(unknown), userId) as [number, string, number][];
      for (const [rowid, id, expired] of rows) {
        this.size += setNew(user.byRowid, rowid, { id, expired: expired === 1 });
        this.size += setNew(user.rowidById, id, rowid);
      }
    }
    return user.byRowid;
  }

  /** The user's records written in place (expired, moved between tiers): their rows are read again. */
  written(userId: string, ids: readonly string[]): void {
    const user = this.users.get(userId);
    if (!user) return;
    for (const id of ids) {
      const rowid = user.rowidById.get(id);
      if (rowid !== undefined && user.byRowid.delete(rowid)) this.size--;
    }
  }

  /** Forgets every user's rows; returns a fresh, empty entry for `userId` when one is given. */
  forget(): void;
  forget(userId: string): UserRows;
  forget(userId?: string): UserRows | undefined {
    this.users.clear();
    this.size = 0;
    return userId === undefined ? undefined : this.user(userId);
  }

  private user(userId: string): UserRows {
    let user = this.users.get(userId);
    if (!user) {
      user = { rowidById: new Map(), byRowid: new Map() };
      this.users.set(userId, user);
    }
    return user;
  }
}

/** Sets a map entry; 1 when the key is new (the size grows), else 0. */
function setNew<K, V>(map: Map<K, V>, key: K, value: V): number {
  const added = map.has(key) ? 0 : 1;
  map.set(key, value);
  return added;
}
