import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type Database from "better-sqlite3";
import { StorageError } from "../../errors/index.js";
import { BUSY_TIMEOUT_MS, optimize, retryBusySync } from "./busy.js";
import { sqliteDriver } from "./driver.js";
import { assertSchemaSupported, migrate } from "./migrations.js";

/**
 * Opens (creating if needed) and migrates the store's file. Any number of processes may do this at once
 * on the same file: every step that takes a lock waits and retries while another process holds it.
 */
export function openDatabase(path: string, durability: "full" | "normal"): Database.Database {
  let db: Database.Database | undefined;
  try {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    // The busy timeout is set first: another process may be creating or migrating the same file.
    const Sqlite = sqliteDriver();
    db = new Sqlite(path, { timeout: BUSY_TIMEOUT_MS });
    const opened = db;
    // Refuse a newer schema before changing anything about the file (such as its journal mode).
    retryBusySync(`open ${path}`, () => {
      assertSchemaSupported(opened);
      opened.pragma("journal_mode = WAL");
    });
    db.pragma(`synchronous = ${durability === "normal" ? "NORMAL" : "FULL"}`);
    db.pragma("foreign_keys = ON");
    db.pragma("secure_delete = ON");
    // 64 MiB page cache: full-text joins and scans of a large scope stay in memory (default is 2 MiB).
    db.pragma("cache_size = -65536");
    retryBusySync(`migrate ${path}`, () => migrate(opened));
    optimize(db, "optimize = 0x10002");
    return db;
  } catch (cause) {
    db?.close();
    throw new StorageError(`cannot open SQLite store at ${path}: ${(cause as Error).message}`, { cause });
  }
}
