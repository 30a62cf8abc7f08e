import { randomBytes } from "node:crypto";
import type Database from "better-sqlite3";
import type { Index } from "usearch";
import { dot } from "../../model/index.js";
import type { Hit, VectorStats } from "../storage-port.js";
import { retryBusySync } from "./busy.js";
import {
  indexFileName,
  indexFiles,
  newIndex,
  removeSuperseded,
  userDir,
  viewIndexFile,
  writeIndexFiles,
} from "./index-files.js";
import { blobToVector } from "./row-mapping.js";
import { type Row, SavedRows } from "./saved-rows.js";
import { DEFAULT_ANN_THRESHOLD, MAX_ANN_CANDIDATES, UserVectors } from "./user-vectors.js";
import { type ChangeRow, statements } from "./vector-log-statements.js";
import type { VectorFilter, VectorSet } from "./vector-set.js";

export interface IndexedSetOptions {
  readonly db: Database.Database;
  /** The store's file, for messages. */
  readonly path: string;
  readonly userId: string;
  readonly kind: string;
  readonly dim: number;
  /** Folder of the index files (`<db>-vectors`), or null for a store in memory (index kept in memory). */
  readonly root: string | null;
  /** False for a read-only store: it replays the log but never registers, saves or prunes. */
  readonly writable: boolean;
}

/** Where a key is freed: overwritten with zeros so a removed vector's bytes leave the saved file. */
const SCRUB_KEY = 1n << 62n;
/** A filtered graph search widens (x4) up to this many candidates, then scans exactly instead. */
const MAX_WIDENED = 4096;

/** Changes applied since the file was written, from which it is written again. */
function saveAfter(size: number): number {
  return Math.max(1000, Math.floor(size / 20));
}

/**
 * One user's vectors of one kind in a persisted HNSW index (USearch), kept in step with SQLite through
 * the trigger-fed `vector_log`: the file records the log position it reflects; opening views it (memory
 * mapped, nothing rebuilt) and replays the entries after that position, a file behind the pruned log or
 * failing its checks is rebuilt. Keys are the rows' rowids; SQLite stays the source of truth.
 */
export class IndexedVectors implements VectorSet {
  private base: Index | null = null;
  /** Base held in memory (built or loaded): changes are applied to it. A viewed file takes none. */
  private mutable = false;
  /** The file a viewed base maps. */
  private baseFile = "";
  private epoch = "";
  private seq = 0;
  private unsaved = 0;
  /** The rows saved with the viewed or loaded file, looked up lazily. */
  private saved: SavedRows | null = null;
  /** Rows changed since `saved` (null: deleted), or every row of an index built here. */
  private readonly overlay = new Map<number, Row | null>();
  private count = 0;
  /** Ids to rowids, built only when an id filter needs it. */
  private rowOfCache: Map<string, number> | null = null;
  /** Live rows changed since a viewed base was written, with their vectors (scanned exactly). */
  private readonly delta = new Map<number, Float32Array>();
  /** Rows whose entry in a viewed base is superseded (changed or deleted since). */
  private readonly changed = new Set<number>();
  private expiredLive = 0;
  private gone = false;
  private readonly s: ReturnType<typeof statements>;

  private constructor(private readonly o: IndexedSetOptions) {
    this.s = statements(o.db);
  }

  /** The set's index, or null when it cannot have one (a read-only store whose set was never indexed). */
  static open(options: IndexedSetOptions): IndexedVectors | null {
    const set = new IndexedVectors(options);
    return set.reopen() ? set : null;
  }

  get size(): number {
    return this.count;
  }

  private row(rowid: number): Row | undefined {
    const changed = this.overlay.get(rowid);
    if (changed !== undefined) return changed ?? undefined;
    if (!this.saved) return undefined;
    const position = this.saved.find(rowid);
    return position < 0 ? undefined : this.saved.row(position);
  }

  private *entries(): Generator<[number, Row]> {
    const { saved, overlay } = this;
    if (saved) {
      for (let i = 0; i < saved.count; i++) {
        const rowid = saved.rowids[i] as number;
        if (!overlay.has(rowid)) yield [rowid, saved.row(i)];
      }
    }
    for (const [rowid, row] of overlay) if (row) yield [rowid, row];
  }

  private rowOf(id: string): number | undefined {
    if (!this.rowOfCache) {
      this.rowOfCache = new Map();
      for (const [rowid, row] of this.entries()) this.rowOfCache.set(row.id, rowid);
    }
    return this.rowOfCache.get(id);
  }

  /** False once the set is no longer registered (its user was forgotten): drop it. */
  get live(): boolean {
    return !this.gone;
  }

  private get persisted(): boolean {
    return this.o.root !== null && this.o.writable;
  }

  scansExactly(k?: number, filter: VectorFilter = {}): boolean {
    const few = (filter.ids?.size ?? this.size) < DEFAULT_ANN_THRESHOLD;
    return this.size < DEFAULT_ANN_THRESHOLD || few || (k !== undefined && k > MAX_ANN_CANDIDATES);
  }

  /** Brings the set up to the latest committed log entry (writes of this or any other process). */
  sync(): void {
    if (this.gone) return;
    const { userId, kind, dim } = this.o;
    const changes = this.o.db.transaction(() => {
      const set = this.s.set.get(userId, kind) as { epoch: string; pruned: number } | undefined;
      if (!set || set.epoch !== this.epoch || set.pruned > this.seq) return null;
      return this.s.changes.all(dim * 4, userId, kind, this.seq) as ChangeRow[];
    })();
    if (changes === null) {
      if (!this.reopen()) this.release();
      return;
    }
    if (changes.length === 0) return;
    this.unsaved += this.applyAll(changes);
    this.seq = (changes[changes.length - 1] as ChangeRow).seq;
    if (this.persisted && this.unsaved >= saveAfter(this.size)) this.save();
    else if (this.o.root === null && this.o.writable) this.prune();
  }

  searchWithStats(
    query: Float32Array,
    k: number,
    filter: VectorFilter = {},
    approximateK?: number,
  ): { hits: Hit[]; stats: VectorStats | null } {
    if (!this.scansExactly(k, filter)) {
      const hits = this.searchIndex(query, Math.min(k, approximateK ?? k, this.size), filter);
      if (hits) return { hits, stats: null };
    }
    return this.exact(query, k, filter);
  }

  stats(query: Float32Array, filter: VectorFilter = {}): VectorStats | null {
    return this.scansExactly(undefined, filter) ? this.exact(query, 1, filter).stats : null;
  }

  /** Writes unsaved changes to the file (on close): the next open then replays nothing. */
  flush(): void {
    if (!this.gone && this.persisted && this.unsaved > 0) this.save();
  }

  release(): void {
    this.gone = true;
    this.base = null;
    this.resetRows();
    this.delta.clear();
    this.changed.clear();
  }

  /**
   * (Re)opens the set from a consistent snapshot: registers it (a writable store), views the newest
   * index file the log can bring up to date and replays the log after it, or rebuilds the index from the
   * vectors in SQLite when there is no such file or it fails its checks. False when unregistered.
   */
  private reopen(trustFiles = true): boolean {
    const { db, userId, kind, dim, root } = this.o;
    if (this.o.writable && !this.s.set.get(userId, kind)) {
      retryBusySync(`index the vectors of ${userId}/${kind} in ${this.o.path}`, () =>
        db.transaction(() => this.s.register.run(userId, kind, randomBytes(8).toString("hex"))).immediate(),
      );
    }
    const snapshot = db.transaction(() => {
      const set = this.s.set.get(userId, kind) as { epoch: string; pruned: number } | undefined;
      if (!set) return null;
      const head = (this.s.head.get(userId, kind) as { seq: number | null }).seq ?? set.pruned;
      const dir = root === null ? null : userDir(root, userId);
      const file =
        dir === null || !trustFiles
          ? undefined
          : indexFiles(dir, kind, dim).find(
              (f) => f.epoch === set.epoch && f.seq >= set.pruned && f.seq <= head,
            );
      if (file) {
        const changes = this.s.changes.all(dim * 4, userId, kind, file.seq) as ChangeRow[];
        return { set, head, file, changes, rows: [], vectors: [] };
      }
      const rows = this.s.rows.all(userId, kind, dim * 4) as {
        row: number;
        id: string;
        tier: string;
        expired_at: string | null;
      }[];
      const vectors = this.s.vectors.all(userId, kind, dim * 4) as { row: number; embedding: Buffer }[];
      return { set, head, file, changes: [], rows, vectors };
    })();
    if (!snapshot) return false;
    const { set, head, file, changes, rows, vectors } = snapshot;
    this.gone = false;
    this.epoch = set.epoch;
    this.resetRows();
    this.delta.clear();
    this.changed.clear();
    if (file) {
      // The file and its rows, then the log after its position: no scan of the set's rows in SQLite.
      const viewed = this.view(file.file);
      if (!viewed) return this.reopen(false);
      this.base = viewed;
      this.baseFile = file.file;
      this.mutable = false;
      this.unsaved = this.applyAll(changes);
      this.seq = Math.max(file.seq, (changes[changes.length - 1] as ChangeRow | undefined)?.seq ?? 0);
      return true;
    }
    this.seq = head;
    for (const r of rows) this.addRow(r.row, r.id, r.tier, r.expired_at !== null);
    const index = newIndex(dim, vectors.length);
    if (vectors.length > 0) {
      const keys = new BigUint64Array(vectors.length);
      const data = new Float32Array(vectors.length * dim);
      vectors.forEach((v, i) => {
        keys[i] = BigInt(v.row);
        data.set(blobToVector(v.embedding), i * dim);
      });
      index.add(keys, data, 0);
    }
    this.base = index;
    this.mutable = true;
    this.unsaved = vectors.length;
    if (this.persisted) this.save();
    return true;
  }

  private addRow(rowid: number, id: string, tier: string, expired: boolean): void {
    this.overlay.set(rowid, { id, kind: this.o.kind, tier, expired });
    this.count++;
    if (expired) this.expiredLive++;
  }

  private resetRows(): void {
    this.saved = null;
    this.overlay.clear();
    this.count = 0;
    this.expiredLive = 0;
    this.rowOfCache = null;
  }

  /**
   * Views (memory-maps) an index file and reads the rows saved with it, checking one against the other:
   * the right dimension, as many entries as rows, and the keys of rows spread over the file present.
   * Null (rebuild) when either is missing, corrupt or they disagree.
   */
  private view(file: string): Index | null {
    try {
      const viewed = viewIndexFile(file, this.o.dim, this.o.kind);
      if (!viewed) return null;
      const { index, saved } = viewed;
      this.saved = saved;
      this.count = saved.count;
      this.expiredLive = saved.expired.reduce((n, e) => n + e, 0);
      return index;
    } catch {
      this.resetRows();
      return null;
    }
  }

  /** Applies the latest change of each row; how many rows changed. */
  private applyAll(changes: readonly ChangeRow[]): number {
    const latest = new Map<number, ChangeRow>();
    for (const c of changes) latest.set(c.row, c);
    for (const c of latest.values()) this.apply(c);
    return latest.size;
  }

  private apply(c: ChangeRow): void {
    const previous = this.row(c.row);
    if (previous) {
      this.count--;
      if (previous.expired) this.expiredLive--;
    }
    this.rowOfCache = null;
    // A row of the saved file is masked (null) when gone; one added since is simply dropped.
    if (this.saved && this.saved.find(c.row) >= 0) this.overlay.set(c.row, null);
    else this.overlay.delete(c.row);
    const vector = c.id !== null && c.embedding !== null ? blobToVector(c.embedding) : null;
    if (this.mutable) put(this.base as Index, c.row, vector, this.o.dim);
    else {
      this.changed.add(c.row);
      if (vector) this.delta.set(c.row, vector);
      else this.delta.delete(c.row);
    }
    if (vector && c.id !== null) this.addRow(c.row, c.id, c.tier ?? "", c.expired_at !== null);
  }

  /** Loads the viewed file into memory and applies the changes made since it was written. */
  private merge(): boolean {
    const index = newIndex(this.o.dim, this.count);
    try {
      index.load(this.baseFile);
    } catch {
      return false; // removed by a process that saved a newer file: the caller reopens from that one
    }
    for (const row of this.changed) put(index, row, this.delta.get(row) ?? null, this.o.dim);
    this.base = index;
    this.mutable = true;
    this.changed.clear();
    this.delta.clear();
    return true;
  }

  /**
   * Writes the index at the current log position: to a temporary file, flushed, then renamed into place
   * inside a write transaction that checks the set is still registered, and prunes the log up to it.
   */
  private save(): void {
    const { db, root, userId, kind, dim } = this.o;
    if (!this.mutable && !this.merge()) {
      if (!this.reopen()) this.release();
      return;
    }
    const dir = userDir(root as string, userId);
    const name = indexFileName({ kind, dim, epoch: this.epoch, seq: this.seq });
    const kept = writeIndexFiles(
      dir,
      name,
      this.base as Index,
      SavedRows.serialize(this.entries()),
      (commit) =>
        retryBusySync(`save the vector index of ${userId}/${kind} in ${this.o.path}`, () =>
          db
            .transaction(() => {
              const set = this.s.set.get(userId, kind) as { epoch: string; pruned: number } | undefined;
              if (!set || set.epoch !== this.epoch || set.pruned > this.seq) return false;
              commit();
              this.s.prune.run(userId, kind, this.seq);
              this.s.setPruned.run(this.seq, userId, kind);
              return true;
            })
            .immediate(),
        ),
    );
    if (!kept) return;
    this.unsaved = 0;
    removeSuperseded(dir, kind, dim, this.epoch, this.seq);
  }

  /** An in-memory store has no file to save: its log is pruned as soon as it is applied. */
  private prune(): void {
    const { db, userId, kind } = this.o;
    db.transaction(() => {
      this.s.prune.run(userId, kind, this.seq);
      this.s.setPruned.run(this.seq, userId, kind);
    }).immediate();
    this.unsaved = 0;
  }

  /** The filtered graph search; null when the filter is so selective that an exact scan serves it. */
  private searchIndex(query: Float32Array, want: number, filter: VectorFilter): Hit[] | null {
    const test = this.tester(filter);
    const base = this.base as Index;
    const n = base.size();
    const hits: Hit[] = [];
    if (n > 0 && want > 0) {
      // Entries changed since the file are masked; the search widens when they (or a filter) leave too few.
      let ask = Math.min(n, want + Math.min(this.changed.size, want));
      if (test) ask = Math.min(n, ask * 2);
      for (;;) {
        const found = base.search(query, ask, 1);
        hits.length = 0;
        for (let i = 0; i < found.keys.length; i++) {
          const row = Number(found.keys[i]);
          if (this.changed.has(row)) continue;
          const r = this.row(row);
          if (!r || (test && !test(r))) continue;
          // Inner-product distance is 1 - dot.
          hits.push({ id: r.id, score: 1 - (found.distances[i] as number) });
        }
        if (hits.length >= want || ask >= n) break;
        if (ask >= MAX_WIDENED) return null;
        ask = Math.min(n, ask * 4);
      }
    }
    for (const [row, vector] of this.delta) {
      const r = this.row(row);
      if (!r || (test && !test(r))) continue;
      hits.push({ id: r.id, score: dot(vector, query) });
    }
    return hits.sort((a, b) => b.score - a.score).slice(0, want);
  }

  /** An exact scan over the vectors in SQLite (all of the set's, or the filter's ids). */
  private exact(query: Float32Array, k: number, filter: VectorFilter) {
    const { userId, kind, dim } = this.o;
    const rows = filter.ids
      ? (this.s.vectorsOf.all(
          JSON.stringify([...filter.ids].flatMap((id) => this.rowOf(id) ?? [])),
          dim * 4,
        ) as { row: number; embedding: Buffer }[])
      : (this.s.vectors.all(userId, kind, dim * 4) as { row: number; embedding: Buffer }[]);
    const set = new UserVectors(dim);
    for (const r of rows) {
      const row = this.row(r.row);
      if (row) set.upsert({ ...row, vector: blobToVector(r.embedding) });
    }
    return set.searchWithStats(query, k, filter);
  }

  private tester(filter: VectorFilter): ((row: Row) => boolean) | null {
    const { accept, ids } = filter;
    const current = filter.current === true && this.expiredLive > 0;
    if (!accept && !current && !ids) return null;
    return (row) => {
      if (current && row.expired) return false;
      if (ids && !ids.has(row.id)) return false;
      return accept === undefined || accept(row, row.id);
    };
  }
}

/** Sets a row's vector in an index, or removes it (null), overwriting the slot a removal freed. */
function put(index: Index, row: number, vector: Float32Array | null, dim: number): void {
  const key = BigInt(row);
  if (index.contains(key)) {
    index.remove(key);
    if (!vector) {
      // The next add reuses the freed slot: zeros go there, then it is freed again.
      index.add(SCRUB_KEY, new Float32Array(dim));
      index.remove(SCRUB_KEY);
    }
  }
  if (vector) index.add(key, vector);
}
