import { createRequire } from "node:module";

/** The slice of better-sqlite3 these tests use; the test package carries no type declarations for it. */
interface RawDatabase {
  pragma(source: string, options?: { simple?: boolean }): unknown;
  exec(source: string): unknown;
  prepare(source: string): { get(...params: unknown[]): unknown };
  close(): void;
}
type RawDatabaseConstructor = new (
  path: string,
  options?: { readonly?: boolean; fileMustExist?: boolean },
) => RawDatabase;

const require = createRequire(import.meta.url);
const Database = require("better-sqlite3") as RawDatabaseConstructor;

/** Runs `PRAGMA integrity_check` on a database file, bypassing Engram entirely. */
export function integrityCheck(path: string): unknown {
  const db = new Database(path, { fileMustExist: true });
  try {
    return db.pragma("integrity_check", { simple: true });
  } finally {
    db.close();
  }
}

/**
 * Creates the file if needed and holds its write lock (WAL mode, BEGIN IMMEDIATE) until `release()`, as
 * a process in the middle of a write transaction would.
 */
export function holdWriteLock(path: string): { release(): void } {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.exec("BEGIN IMMEDIATE");
  return {
    release() {
      db.exec("ROLLBACK");
      db.close();
    },
  };
}

/** One row of a read-only query on a database file, bypassing Engram. */
export function queryRow<T>(path: string, sql: string, ...params: unknown[]): T {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).get(...params) as T;
  } finally {
    db.close();
  }
}
