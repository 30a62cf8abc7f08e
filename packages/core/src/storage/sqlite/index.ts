export { READ_ONLY_SNAPSHOT_MAX_BYTES } from "./open-store.js";
export { DEFAULT_DB_PATH, SqliteStorage, type SqliteStorageOptions } from "./sqlite-storage.js";
