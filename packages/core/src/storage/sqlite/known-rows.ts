import type Database from "better-sqlite3";
import type { Prepare } from "./sqlite-scan.js";

/** Bound on the ids (and rows) remembered; past it the memory starts over. */
const MAX_REMEMBERED_IDS = 65_536;

/** A row's id and whether its record is expired. */
export interface KnownRow {
  readonly id: string;
  readonly expired: boolean;
}

/**
 * What the full-text search knows of rows between searches, as last read: ids' rowids (retrieval asks for
 * the pages of the same segments again and again) and rows' ids and expiry (for listing without a join).
 * Every row known by rowid is also known by id, so a record written in place can be forgotten by its id.
 * A rowid changes only when its row is deleted or changes kind, which forgets everything (`forget`).
 */
export class KnownRows {
  private readonly rowidById = new Map<string, number>();
  private readonly byRowid = new Map<number, KnownRow>();
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

  /** The rowids of these ids (any user's: the caller keeps those inside the user's ranges). */
  rowids(ids: readonly string[]): number[] {
    const missing: string[] = [];
    for (const id of ids) if (!this.rowidById.has(id)) missing.push(id);
    if (missing.length) {
      if (this.rowidById.size + missing.length > MAX_REMEMBERED_IDS) this.forget();
      const found = this.rowidsStatement.all(JSON.stringify(missing)) as [string, number][];
      for (const [id, rowid] of found) this.rowidById.set(id, rowid);
    }
    const rowids: number[] = [];
    for (const id of ids) {
      const rowid = this.rowidById.get(id);
      if (rowid !== undefined) rowids.push(rowid);
    }
    return rowids;
  }

  /** These rows' ids and expiry (the user's rows only), read for those not known yet. */
  rows(userId: string, rowids: readonly number[]): ReadonlyMap<number, KnownRow> {
    const unknown: number[] = [];
    for (const rowid of rowids) if (!this.byRowid.has(rowid)) unknown.push(rowid);
    if (unknown.length) {
      if (this.byRowid.size + unknown.length > MAX_REMEMBERED_IDS) this.forget();
      const rows = this.prepare(
        `SELECT m.rowid, m.id, m.expired_at IS NOT NULL FROM json_each(?) AS j
         CROSS JOIN memories m ON m.rowid = j.value WHERE m.user_id = ?`,
      )
        .raw()
        .all(JSON.stringify(unknown), userId) as [number, string, number][];
      for (const [rowid, id, expired] of rows) {
        this.byRowid.set(rowid, { id, expired: expired === 1 });
        this.rowidById.set(id, rowid);
      }
    }
    return this.byRowid;
  }

  /** Records written in place (expired, moved between tiers): their rows are read again. */
  written(ids: readonly string[]): void {
    for (const id of ids) {
      const rowid = this.rowidById.get(id);
      if (rowid !== undefined) this.byRowid.delete(rowid);
    }
  }

  forget(): void {
    this.rowidById.clear();
    this.byRowid.clear();
  }
}
