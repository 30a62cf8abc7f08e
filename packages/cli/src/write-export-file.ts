import { randomBytes } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { InputError, UsageError } from "./cli-error.js";

/** The files a SQLite store consists of: the database, its journals, and its vector index folder. */
const STORE_SUFFIXES = ["", "-wal", "-shm", "-journal"] as const;
const VECTOR_FOLDER_SUFFIX = "-vectors";

/** How an export file begins (`JSON.stringify(dump, null, 2)` puts `format` first). */
const EXPORT_HEAD = /^\s*\{\s*"format"\s*:\s*"engram\.export"/;

/** The real path of `path`, or of its nearest existing parent joined with the rest; symlinks resolved. */
function realish(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    const parent = dirname(absolute);
    return parent === absolute ? absolute : join(realish(parent), basename(absolute));
  }
}

function sameFile(a: string, b: string): boolean {
  try {
    const x = statSync(a);
    const y = statSync(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

function readHead(path: string): string {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(256);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, n).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * Refuses an output path that would destroy data: any file of the store (by path, symlink or hard link),
 * a folder, or an existing file that `engram export` did not write (unless `force`).
 */
export function checkExportTarget(out: string, storePath: string | undefined, force: boolean): void {
  const target = realish(out);
  if (storePath !== undefined) {
    const store = realish(storePath);
    for (const suffix of STORE_SUFFIXES) {
      if (target === `${store}${suffix}` || sameFile(out, `${storePath}${suffix}`)) {
        throw new UsageError(
          `--out ${out} is ${suffix === "" ? "the store itself" : `the store's ${suffix.slice(1)} file`}; ` +
            "write the export to another file",
        );
      }
    }
    const vectors = `${store}${VECTOR_FOLDER_SUFFIX}`;
    if (target === vectors || target.startsWith(`${vectors}${sep}`)) {
      throw new UsageError(
        `--out ${out} is inside the store's vector index folder; write the export elsewhere`,
      );
    }
  }
  let stat: ReturnType<typeof statSync> | undefined;
  try {
    stat = statSync(out);
  } catch {
    return; // a new file
  }
  if (stat.isDirectory()) throw new UsageError(`--out ${out} is a folder; name a file`);
  if (force) return;
  let head = "";
  try {
    head = readHead(out);
  } catch (error) {
    throw new InputError(`cannot read ${out}: ${(error as Error).message}`);
  }
  if (stat.size > 0 && !EXPORT_HEAD.test(head)) {
    throw new UsageError(
      `--out ${out} exists and was not written by engram export; pass --force to replace it`,
    );
  }
}

/**
 * Writes `content` to `path` all at once: into a new file beside it, flushed, then renamed over it, so an
 * interrupted or failed write leaves the old file (or none) and never half a dump.
 */
export function writeFileAtomically(path: string, content: string): void {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, "wx", 0o600);
    writeSync(fd, content);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // never created, or already renamed
    }
    throw error;
  }
  try {
    const dir = openSync(dirname(path), "r");
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch {
    // Some platforms cannot open or flush a folder; the rename itself is done.
  }
}
