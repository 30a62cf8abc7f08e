import { SqliteStorage, type SqliteStorageOptions } from "./sqlite-storage.js";

export { READ_ONLY_SNAPSHOT_MAX_BYTES } from "./open-store.js";
export { DEFAULT_DB_PATH, SqliteStorage, type SqliteStorageOptions } from "./sqlite-storage.js";

/** The embedded default backend: one SQLite file, nothing to run, works offline. */
export function sqliteStorage(options: SqliteStorageOptions = {}): SqliteStorage {
  return new SqliteStorage(options);
}
