import { cubeKey } from "../../model/index.js";
import type { KvEntry, KvListOptions } from "../storage-port.js";
import { type KvRow, kvRowToEntry } from "../stored-rows.js";
import type { Prepare } from "./prepare.js";

/** One key-value entry of a user, or null. */
export function readKv(
  prepare: Prepare,
  userId: string,
  namespace: readonly string[],
  key: string,
): KvEntry | null {
  const row = prepare("SELECT * FROM kv WHERE user_id = ? AND namespace = ? AND key = ?").get(
    userId,
    cubeKey(namespace),
    key,
  ) as KvRow | undefined;
  return row ? kvRowToEntry(row) : null;
}

/** A user's key-value entries, under a namespace prefix when given, in namespace and key order. */
export function listKv(prepare: Prepare, userId: string, options: KvListOptions): KvEntry[] {
  // A namespace key is a JSON array; a prefix of parts is a prefix of its text without the closing bracket,
  // followed by "," (deeper) or "]" (the namespace itself). Nothing valid sorts between those two, so the
  // range below is exactly the prefix's namespaces, and the primary key index answers it in order.
  const prefix = options.prefix?.length ? cubeKey(options.prefix).slice(0, -1) : null;
  const page = [options.limit ?? -1, options.offset ?? 0];
  const rows =
    prefix === null
      ? prepare("SELECT * FROM kv WHERE user_id = ? ORDER BY namespace, key LIMIT ? OFFSET ?").all(
          userId,
          ...page,
        )
      : prepare(
          `SELECT * FROM kv WHERE user_id = ? AND namespace >= ? AND namespace <= ?
           ORDER BY namespace, key LIMIT ? OFFSET ?`,
        ).all(userId, `${prefix},`, `${prefix}]`, ...page);
  return (rows as KvRow[]).map(kvRowToEntry);
}
