import { type MemoryVersion, parseCubeKey } from "../model/index.js";
import type { KvEntry } from "./storage-port.js";

// History rows and key-value entries as the backends store them (SQLite columns, Qdrant payloads).

export interface HistoryRow {
  memory_id: string;
  user_id: string;
  version: number;
  event: string;
  text: string;
  metadata: string;
  at: string;
}

export function rowToVersion(row: HistoryRow): MemoryVersion {
  return {
    memoryId: row.memory_id,
    userId: row.user_id,
    version: row.version,
    event: row.event as MemoryVersion["event"],
    text: row.text,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    at: row.at,
  };
}

export interface KvRow {
  namespace: string;
  key: string;
  value: string;
  created_at: string;
  updated_at: string;
}

export function kvRowToEntry(row: KvRow): KvEntry {
  return {
    namespace: parseCubeKey(row.namespace),
    key: row.key,
    value: row.value,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
