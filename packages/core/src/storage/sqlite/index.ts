export { DEFAULT_DB_PATH, SqliteStorage, type SqliteStorageOptions } from "./sqlite-storage.js";
