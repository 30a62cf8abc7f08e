import { BoundedCache, type MemoryRecord } from "../../model/index.js";
import type { ScanOptions } from "../storage-port.js";
import { filterToSql } from "./filter-sql.js";
import type { Prepare } from "./prepare.js";
import type { RecordCache } from "./record-cache.js";
import type { CommittedWrite, Remembered } from "./remembered.js";
import type { RowBlocks } from "./row-blocks.js";

/** Up to this many rows of the wanted kinds, a scan reads their rowid blocks and sorts them. */
const SORTED_SCAN_ROWS = 4096;

/**
 * Where a scan reads. Without statistics SQLite walks the user's time index for every scan, reading the
 * whole scope to find a few facts; rows of few enough wanted kinds are read straight from their rowid
 * blocks instead and sorted. Null: the user has no row of those kinds.
 */
function scanSource(
  prepare: Prepare,
  blocks: RowBlocks,
  counts: ScanCounts,
  userId: string,
  filter: ScanOptions["filter"],
): { from: string; sql: string; params: number[] } | null {
  const plain = { from: "memories m", sql: "", params: [] };
  const kinds = filter?.kinds;
  if (!kinds) return plain;
  // Few rows of these kinds in these tiers (the short-term queue among thousands of older messages):
  // read them through the (user, kind, tier) index and sort, rather than walk the time index past them.
  if (kinds.length && filter?.tiers?.length && counts.few(prepare, userId, kinds, filter.tiers)) {
    return { from: "memories m INDEXED BY memories_user_kind", sql: "", params: [] };
  }
  const ranges = blocks.ranges(userId, kinds);
  if (ranges.length === 0) return null;
  if (blocks.rowsAtMost(ranges) > SORTED_SCAN_ROWS) {
    // The blocks are large but may be mostly empty (segments created and deleted by the thousand during
    // an import): then the live rows are still few, and the (user, kind, tier) index finds them.
    return kinds.length && counts.few(prepare, userId, kinds, filter?.tiers)
      ? { from: "memories m INDEXED BY memories_user_kind", sql: "", params: [] }
      : plain;
  }
  return {
    from: "memories m NOT INDEXED",
    sql: ` AND (${ranges.map(() => "m.rowid BETWEEN ? AND ?").join(" OR ")})`,
    params: ranges.flatMap((r) => [r.lo, r.hi]),
  };
}

/**
 * Whether at most SORTED_SCAN_ROWS rows of the user have one of the kinds (and of the tiers, when given):
 * an index count that stops past the bound.
 */
function fewInTiers(
  prepare: Prepare,
  userId: string,
  kinds: readonly string[],
  tiers: readonly string[] | undefined,
): boolean {
  const list = (n: number) => Array.from({ length: n }, () => "?").join(",");
  const tierSql = tiers?.length ? ` AND tier IN (${list(tiers.length)})` : "";
  const rows = prepare(
    `SELECT count(*) FROM (SELECT 1 FROM memories INDEXED BY memories_user_kind
     WHERE user_id = ? AND kind IN (${list(kinds.length)})${tierSql} LIMIT ?)`,
  )
    .pluck()
    .get(userId, ...kinds, ...(tiers ?? []), SORTED_SCAN_ROWS + 1) as number;
  return rows <= SORTED_SCAN_ROWS;
}

/** Users whose counts are remembered. */
const COUNTED_USERS = 4096;

/**
 * Whether few rows of a user have some kinds (and tiers), as scans last counted them: the count walks
 * up to 4,097 index entries, most of a search's speaker probe in a large scope, and its answer changes
 * only when the user's rows do. Forgotten on the user's next write and on another connection's.
 */
export class ScanCounts implements Remembered {
  private readonly byUser = new BoundedCache<string, Map<string, boolean>>(COUNTED_USERS);

  few(prepare: Prepare, userId: string, kinds: readonly string[], tiers: readonly string[] | undefined) {
    const key = `${kinds.join(",")}\u0000${tiers?.join(",") ?? ""}`;
    const known = this.byUser.memo(userId, () => new Map<string, boolean>());
    let few = known.get(key);
    if (few === undefined) {
      few = fewInTiers(prepare, userId, kinds, tiers);
      known.set(key, few);
    }
    return few;
  }

  written(write: CommittedWrite): void {
    this.byUser.delete(write.userId);
  }

  drop(userId?: string): void {
    if (userId === undefined) this.byUser.clear();
    else this.byUser.delete(userId);
  }
}

/**
 * A user's records under a filter, in event-time order (then system time, then insertion): the ids are
 * read in order, and the records through the record cache.
 */
export function scanRecords(
  prepare: Prepare,
  blocks: RowBlocks,
  counts: ScanCounts,
  records: RecordCache,
  userId: string,
  options: ScanOptions,
): MemoryRecord[] {
  const where = filterToSql(userId, options.filter);
  const dir = options.order === "desc" ? "DESC" : "ASC";
  const source = scanSource(prepare, blocks, counts, userId, options.filter);
  if (!source) return [];
  const ids = prepare(
    `SELECT m.id FROM ${source.from} WHERE ${where.sql}${source.sql}
     ORDER BY coalesce(m.valid_from, m.created_at) ${dir}, m.created_at ${dir}, m.rowid ${dir} LIMIT ? OFFSET ?`,
  )
    .pluck()
    .all(...where.params, ...source.params, options.limit ?? -1, options.offset ?? 0) as string[];
  return records.read(userId, ids);
}
