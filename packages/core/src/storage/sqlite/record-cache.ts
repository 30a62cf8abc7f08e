import type { MemoryRecord } from "../../model/index.js";
import { type MemoryRow, RECORD_COLUMNS, rowToRecord } from "./row-mapping.js";
import type { Prepare } from "./sqlite-scan.js";

/** Bound on the records remembered; past it the memory starts over. */
const MAX_RECORDS = 32_768;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Records read before, by id. Retrieval reads the same profile facts, segments and pages again and again,
 * and turning a row into a record (a dozen strings and a JSON parse) cost more than finding it. A write
 * forgets the records it upserts or deletes; another connection's write or a forgotten user forgets all.
 * Remembered records are frozen, as they are handed out again, and handed out only to their own user.
 */
export class RecordCache {
  private readonly byId = new Map<string, MemoryRecord>();

  constructor(private readonly prepare: Prepare) {}

  /** The user's records of these ids, in the given order; ids not found (or another user's) are skipped. */
  read(userId: string, ids: readonly string[]): MemoryRecord[] {
    const missing: string[] = [];
    for (const id of ids) if (!this.byId.has(id)) missing.push(id);
    if (missing.length) {
      // By primary key, no ORDER BY: the planner must not walk the user's time index instead.
      const rows = this.prepare(
        `SELECT ${RECORD_COLUMNS} FROM memories m
         WHERE m.id IN (SELECT value FROM json_each(?)) AND +m.user_id = ?`,
      )
        .raw()
        .all(JSON.stringify(missing), userId) as MemoryRow[];
      if (this.byId.size + rows.length > MAX_RECORDS) this.byId.clear();
      for (const row of rows) this.byId.set(row[1], deepFreeze(rowToRecord(row)));
    }
    const out: MemoryRecord[] = [];
    for (const id of ids) {
      const record = this.byId.get(id);
      if (record !== undefined && record.userId === userId) out.push(record);
    }
    return out;
  }

  /** These records were written or deleted. */
  forget(ids: Iterable<string>): void {
    for (const id of ids) this.byId.delete(id);
  }

  drop(): void {
    this.byId.clear();
  }
}
