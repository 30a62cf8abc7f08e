// The embedded SQLite backend (the default of createEngram), for stores opened by hand.
export {
  DEFAULT_DB_PATH,
  READ_ONLY_SNAPSHOT_MAX_BYTES,
  SqliteStorage,
  type SqliteStorageOptions,
  sqliteStorage,
} from "./storage/sqlite/index.js";
