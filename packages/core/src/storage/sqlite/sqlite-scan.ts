import type Database from "better-sqlite3";
import type { MemoryRecord } from "../../model/index.js";
import type { ScanOptions } from "../storage-port.js";
import { filterToSql } from "./filter-sql.js";
import type { RowBlocks } from "./row-blocks.js";
import { type MemoryRow, RECORD_COLUMNS, rowToRecord } from "./row-mapping.js";

/** Up to this many rows of the wanted kinds, a scan reads their rowid blocks and sorts them. */
const SORTED_SCAN_ROWS = 4096;

/**
 * Where a scan reads. Without statistics SQLite walks the user's time index for every scan, reading the
 * whole scope to find a few facts; rows of few enough wanted kinds are read straight from their rowid
 * blocks instead and sorted. Null: the user has no row of those kinds.
 */
function scanSource(
  blocks: RowBlocks,
  userId: string,
  kinds: readonly string[] | undefined,
): { from: string; sql: string; params: number[] } | null {
  const plain = { from: "memories m", sql: "", params: [] };
  if (!kinds) return plain;
  const ranges = blocks.ranges(userId, kinds);
  if (ranges.length === 0) return null;
  if (blocks.rowsAtMost(ranges) > SORTED_SCAN_ROWS) return plain;
  return {
    from: "memories m NOT INDEXED",
    sql: ` AND (${ranges.map(() => "m.rowid BETWEEN ? AND ?").join(" OR ")})`,
    params: ranges.flatMap((r) => [r.lo, r.hi]),
  };
}

/** A user's records under a filter, in event-time order (then system time, then insertion). */
export function scanRecords(
  db: Database.Database,
  blocks: RowBlocks,
  userId: string,
  options: ScanOptions,
): MemoryRecord[] {
  const where = filterToSql(userId, options.filter);
  const dir = options.order === "desc" ? "DESC" : "ASC";
  const source = scanSource(blocks, userId, options.filter?.kinds);
  if (!source) return [];
  const rows = db
    .prepare(
      `SELECT ${RECORD_COLUMNS} FROM ${source.from} WHERE ${where.sql}${source.sql}
       ORDER BY coalesce(m.valid_from, m.created_at) ${dir}, m.created_at ${dir}, m.rowid ${dir} LIMIT ? OFFSET ?`,
    )
    .all(...where.params, ...source.params, options.limit ?? -1, options.offset ?? 0) as MemoryRow[];
  return rows.map(rowToRecord);
}
