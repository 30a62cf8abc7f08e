import type { MemoryRecord } from "../../model/index.js";
import type { Prepare } from "./prepare.js";
import type { CommittedWrite, Remembered } from "./remembered.js";
import { type MemoryRow, RECORD_COLUMNS, rowToRecord } from "./row-mapping.js";

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
 * Records read before, per user and then by id. Retrieval reads the same profile facts, segments and
 * pages again and again, and turning a row into a record (a dozen strings and a JSON parse) cost more than
 * finding it. A read names its user first and sees only that user's records: another user's id is
 * unknown to it. A write forgets the records it upserts or deletes; another connection's write or a
 * forgotten user forgets all. Remembered records are frozen, as they are handed out again.
 */
export class RecordCache implements Remembered {
  private readonly users = new Map<string, Map<string, MemoryRecord>>();
  /** Records held over all users, for the bound. */
  private size = 0;

  constructor(
    private readonly prepare: Prepare,
    private readonly maxRecords = MAX_RECORDS,
  ) {}

  /** The user's records of these ids, in the given order; ids not found (or another user's) are skipped. */
  read(userId: string, ids: readonly string[]): MemoryRecord[] {
    const cached = this.users.get(userId);
    const missing: string[] = [];
    for (const id of ids) if (!cached?.has(id)) missing.push(id);
    const fetched = new Map<string, MemoryRecord>();
    if (missing.length) {
      // By primary key, no ORDER BY: the planner must not walk the user's time index instead.
      const rows = this.prepare(
        `SELECT ${RECORD_COLUMNS} FROM memories m
         WHERE m.id IN (SELECT value FROM json_each(?)) AND +m.user_id = ?`,
      )
        .raw()
        .all(JSON.stringify(missing), userId) as MemoryRow[];
      for (const row of rows) fetched.set(row[1], deepFreeze(rowToRecord(row)));
      this.remember(userId, fetched);
    }
    // From what this read found as well as from memory: remembering may have started the memory over.
    const out: MemoryRecord[] = [];
    for (const id of ids) {
      const record = cached?.get(id) ?? fetched.get(id);
      if (record !== undefined) out.push(record);
    }
    return out;
  }

  private remember(userId: string, records: ReadonlyMap<string, MemoryRecord>): void {
    if (this.size + records.size > this.maxRecords) this.drop();
    if (records.size > this.maxRecords) return;
    let byId = this.users.get(userId);
    if (!byId) {
      byId = new Map();
      this.users.set(userId, byId);
    }
    for (const [id, record] of records) {
      if (!byId.has(id)) this.size++;
      byId.set(id, record);
    }
  }

  written({ userId, removed, written }: CommittedWrite): void {
    this.forget(userId, [...removed, ...written.map((r) => r.id)]);
  }

  /** These records of the user were written or deleted. */
  forget(userId: string, ids: Iterable<string>): void {
    const byId = this.users.get(userId);
    if (!byId) return;
    for (const id of ids) if (byId.delete(id)) this.size--;
  }

  drop(): void {
    this.users.clear();
    this.size = 0;
  }
}
