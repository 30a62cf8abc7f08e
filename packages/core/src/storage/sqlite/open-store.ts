import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
} from "node:fs";
import { dirname } from "node:path";
import type Database from "better-sqlite3";
import { StorageError } from "../../errors/index.js";
import { sqliteDriver } from "./driver.js";
import { assertSchemaSupported, SCHEMA_VERSION } from "./migrations.js";

/**
 * Largest file read into memory for a read-only open that can create no file beside it (see
 * `openReadOnly`). Larger stores are opened in place, which needs their -wal and -shm files.
 */
export const READ_ONLY_SNAPSHOT_MAX_BYTES = 1024 * 1024 * 1024;

function canWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why the store at `path` opens read-only, or null to open it for writing. `readonly` true forces it;
 * undefined decides from the file: read-only when this process cannot write it, or cannot create the
 * -wal file SQLite needs beside it. (Permission bits do not stop root, so for root only `true` applies.)
 */
export function readOnlyReason(path: string, readonly: boolean | undefined): string | null {
  if (readonly === true) return "opened with readonly: true";
  if (readonly === false || path === ":memory:" || !existsSync(path)) return null;
  if (!canWrite(path)) return "the file is not writable by this process";
  if (!canWrite(dirname(path)) && !existsSync(`${path}-wal`)) {
    return "its directory is not writable by this process, and SQLite needs to create the -wal file there";
  }
  return null;
}

/** The first 100 bytes of a SQLite file: byte 18 is 2 when it is in WAL mode. */
function header(path: string): Buffer {
  const fd = openSync(path, "r");
  try {
    const bytes = Buffer.alloc(100);
    readSync(fd, bytes, 0, 100, 0);
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens a store for reading, creating no file beside it:
 * - a file this process can write (and whose directory it can write): a normal connection with
 *   `query_only`, which sees other processes' writes as they commit; its close removes -wal and -shm as
 *   any last connection does;
 * - a WAL file another process has open (its -wal exists): a read-only connection sharing that WAL;
 * - otherwise a WAL file is read into memory (a snapshot as of the open), since SQLite cannot read it in
 *   place without creating -shm; a rollback-journal file is read in place.
 */
export function openReadOnly(path: string): Database.Database {
  if (path === ":memory:") throw new Error("an in-memory store cannot be opened read-only");
  if (!existsSync(path)) throw new Error("no such file");
  const wal = `${path}-wal`;
  const Sqlite = sqliteDriver();
  let db: Database.Database;
  if (canWrite(path) && (canWrite(dirname(path)) || existsSync(wal))) {
    db = new Sqlite(path, { fileMustExist: true });
    db.pragma("query_only = ON");
  } else if (header(path)[18] !== 2 || existsSync(wal)) {
    db = new Sqlite(path, { readonly: true, fileMustExist: true });
  } else if (statSync(path).size <= READ_ONLY_SNAPSHOT_MAX_BYTES) {
    const bytes = readFileSync(path);
    // Only the copy is marked as a rollback-journal database; SQLite refuses to deserialize a WAL one.
    bytes[18] = 1;
    bytes[19] = 1;
    db = new Sqlite(bytes, { readonly: true });
  } else {
    db = new Sqlite(path, { readonly: true, fileMustExist: true });
  }
  try {
    db.pragma("busy_timeout = 5000");
    db.pragma("cache_size = -65536");
    assertSchemaSupported(db);
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version < SCHEMA_VERSION) {
      throw new Error(
        `its schema (version ${version}) needs migrating to version ${SCHEMA_VERSION}, which a read-only open ` +
          "cannot do; open it once with write access",
      );
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** `openReadOnly`, its failure reported as a `StorageError` naming the file, as `openDatabase` does. */
export function openReadOnlyStore(path: string): Database.Database {
  try {
    return openReadOnly(path);
  } catch (cause) {
    throw new StorageError(`cannot open SQLite store at ${path} read-only: ${(cause as Error).message}`, {
      cause,
    });
  }
}
