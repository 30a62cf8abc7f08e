import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Index } from "usearch";
import { SavedRows } from "./saved-rows.js";

const require = createRequire(import.meta.url);

/**
 * Graph parameters (USearch HNSW, f32, inner product = cosine of unit vectors): 16 links a node,
 * expansion 128 while adding and 256 while searching: at 100k, searching with 128 agreed on 0.91 of the
 * exact top 10, 256 on 0.96 for about the same time (docs/decisions/0003-persisted-vector-index.md).
 * A smaller graph reaches the same neighbours with a narrower search: under SMALL_SET vectors it
 * searches with 128, which at 10k took half the time of 256 (the engine asks for 128 candidates, so
 * no narrower search is possible).
 */
const CONNECTIVITY = 16;
const EXPANSION_ADD = 128;
const EXPANSION_SEARCH = 256;
const EXPANSION_SEARCH_SMALL = 128;
const SMALL_SET = 20_000;

let native: typeof import("usearch") | null | undefined;

/**
 * The USearch module, or null when its prebuilt binary does not load on this platform (say a musl
 * Linux): large sets are then scanned exactly, as small ones always are.
 */
export function usearch(): typeof import("usearch") | null {
  if (native === undefined) {
    try {
      const module = require("usearch") as typeof import("usearch");
      new module.Index(config(2, 0)).size();
      native = module;
    } catch {
      native = null;
    }
  }
  return native;
}

/** The search expansion for a graph of `size` vectors: narrower for small graphs (see SMALL_SET). */
export const searchExpansion = (size: number): number =>
  size < SMALL_SET ? EXPANSION_SEARCH_SMALL : EXPANSION_SEARCH;

function config(dimensions: number, size: number) {
  return {
    dimensions,
    metric: "ip" as import("usearch").MetricKind,
    quantization: "f32" as import("usearch").ScalarKind,
    connectivity: CONNECTIVITY,
    expansion_add: EXPANSION_ADD,
    expansion_search: searchExpansion(size),
    multi: false,
  };
}

/**
 * An empty index of `dimensions`, in memory, set up to search a graph of about `size` vectors (those it
 * is built with or viewed from); a set that grows past SMALL_SET gets the wider search when it is next
 * built, merged or opened.
 */
export function newIndex(dimensions: number, size: number): Index {
  const module = usearch();
  if (!module) throw new Error("the USearch native module is not available");
  return new module.Index(config(dimensions, size));
}

const hash = (text: string, chars: number): string =>
  createHash("sha256").update(text).digest("hex").slice(0, chars);

/** Beside the store: `<db>-vectors/<user hash>/`, one folder a user, so forgetting one removes a folder. */
export function userDir(root: string, userId: string): string {
  return join(root, hash(userId, 32));
}

export interface IndexFileName {
  readonly kind: string;
  readonly dim: number;
  readonly epoch: string;
  readonly seq: number;
}

/** `<kind hash>-<dim>-<epoch>-<log position>.usearch`: what it indexes and up to which log entry. */
export function indexFileName(name: IndexFileName): string {
  return `${hash(name.kind, 16)}-${name.dim}-${name.epoch}-${name.seq}.usearch`;
}

/** The set's index files in `dir`, newest (highest log position) first. */
export function indexFiles(
  dir: string,
  kind: string,
  dim: number,
): { file: string; epoch: string; seq: number }[] {
  const prefix = `${hash(kind, 16)}-${dim}-`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .flatMap((file) => {
      if (!file.startsWith(prefix) || !file.endsWith(".usearch")) return [];
      const [epoch, seq] = file.slice(prefix.length, -".usearch".length).split("-");
      const n = Number(seq);
      return epoch && Number.isSafeInteger(n) ? [{ file: join(dir, file), epoch, seq: n }] : [];
    })
    .sort((a, b) => b.seq - a.seq);
}

/** Flushes a written file (or, where the platform allows, a folder's entries) to disk. */
export function fsyncPath(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    fsyncSync(fd);
  } catch (error) {
    // Windows cannot open a folder for fsync; its renames are flushed with the file.
    if (!(process.platform === "win32" && (error as NodeJS.ErrnoException).code === "EISDIR")) throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Unlinks a file that may already be gone (or, on Windows, still open in another process). */
export function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Another process removed it first, or holds it open on Windows; a later save retries.
  }
}

/** A save takes seconds; a temporary file this old was left by a process that died while saving. */
const ABANDONED_MS = 10 * 60_000;

/** Removes temporary files of saves that never finished (a crash between write and rename). */
export function removeAbandoned(dir: string, now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(".") || !/\.tmp(\.rows)?$/.test(name)) continue;
    const file = join(dir, name);
    try {
      if (now - statSync(file).mtimeMs > ABANDONED_MS) removeQuietly(file);
    } catch {
      // Renamed or removed meanwhile by the process that wrote it.
    }
  }
}

/**
 * Removes a user's index files. Unlinked, not overwritten: another process may have one memory-mapped,
 * and overwriting or truncating a mapped file would crash it; the unlinked data is in no file.
 */
export function removeUserIndexes(root: string, userId: string): void {
  rmSync(userDir(root, userId), { recursive: true, force: true });
}

/** The rows file saved beside an index file: which row each key is, its tier and expiry. */
export const rowsFile = (indexFile: string): string => `${indexFile}.rows`;

/** Rows of a viewed file whose keys are checked against it on open (spread over the file). */
const CHECKED_KEYS = 2048;

/**
 * Views (memory-maps) an index file and reads the rows saved with it, checking one against the other:
 * the right dimension, as many entries as rows, and the keys of rows spread over the file present.
 * Null (rebuild) when they disagree; throws when either is missing or corrupt.
 */
export function viewIndexFile(
  file: string,
  dim: number,
  kind: string,
): { index: Index; saved: SavedRows } | null {
  const saved = SavedRows.parse(readFileSync(rowsFile(file)), kind);
  const index = newIndex(dim, saved.count);
  index.view(file);
  if (index.dimensions() !== dim || index.size() !== saved.count) return null;
  const step = Math.max(1, Math.floor(saved.count / CHECKED_KEYS));
  const sample: bigint[] = [];
  for (let i = 0; i < saved.count; i += step) sample.push(BigInt(saved.rowids[i] as number));
  if (saved.count > 0) sample.push(BigInt(saved.rowids[saved.count - 1] as number));
  if (sample.length > 0 && !(index.contains(BigUint64Array.from(sample)) as boolean[]).every(Boolean)) {
    return null;
  }
  return { index, saved };
}

/**
 * Writes an index and its rows to temporary files, flushed, and lets `publish` decide inside its own
 * transaction whether to rename them into place as `name` (it calls `commit` to do so). True when they
 * were; otherwise the temporary files are removed.
 */
export function writeIndexFiles(
  dir: string,
  name: string,
  index: Index,
  rows: Uint8Array,
  publish: (commit: () => void) => boolean,
): boolean {
  mkdirSync(dir, { recursive: true });
  const temporary = join(dir, `.${name}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  let kept = false;
  try {
    index.save(temporary);
    fsyncPath(temporary);
    writeFileSync(rowsFile(temporary), rows);
    fsyncPath(rowsFile(temporary));
    kept = publish(() => {
      renameSync(rowsFile(temporary), rowsFile(join(dir, name)));
      renameSync(temporary, join(dir, name));
    });
  } finally {
    if (!kept) {
      removeQuietly(temporary);
      removeQuietly(rowsFile(temporary));
    }
  }
  if (kept) fsyncPath(dir);
  return kept;
}

/** Removes the index files (and rows) older than the one just saved, and what crashed saves left. */
export function removeSuperseded(dir: string, kind: string, dim: number, epoch: string, seq: number): void {
  for (const f of indexFiles(dir, kind, dim)) {
    if (f.seq < seq || f.epoch !== epoch) {
      removeQuietly(f.file);
      removeQuietly(rowsFile(f.file));
    }
  }
  removeAbandoned(dir);
}
