import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import { StorageError } from "../../errors/index.js";

let driver: typeof BetterSqlite3 | undefined;

/**
 * better-sqlite3, loaded when the first SQLite store opens rather than when the package is imported: a
 * program on another backend never loads (or needs) the native module.
 * @throws StorageError naming the package when it is not installed or its binary does not load.
 */
export function sqliteDriver(): typeof BetterSqlite3 {
  if (driver) return driver;
  try {
    driver = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
    return driver;
  } catch (cause) {
    throw new StorageError(
      `the SQLite store needs better-sqlite3, an optional dependency of @engram/core, which did not load (${(cause as Error).message}); install it with its build allowed (pnpm: onlyBuiltDependencies; npm install --omit=optional leaves it out), or pass another storage to createEngram`,
      { cause },
    );
  }
}
