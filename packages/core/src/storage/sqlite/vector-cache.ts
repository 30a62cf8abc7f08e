import type Database from "better-sqlite3";
import { BoundedCache } from "../../model/index.js";
import type { Hit, MemoryFilter, VectorQuery, VectorStats } from "../storage-port.js";
import { filterToSql, needsSqlPrefilter } from "./filter-sql.js";
import { removeUserIndexes, usearch } from "./index-files.js";
import { IndexedVectors } from "./indexed-vectors.js";
import type { CommittedWrite, Remembered } from "./remembered.js";
import { blobToVector } from "./row-mapping.js";
import { ScopeVectors } from "./scope-vectors.js";
import { DEFAULT_ANN_THRESHOLD } from "./user-vectors.js";
import type { VectorAttrs, VectorFilter } from "./vector-set.js";

/** Searches whose statistics are kept for vectorStats (retrieval runs several searches concurrently). */
const RECENT_SEARCHES = 8;

/**
 * The most bytes of vectors held in memory across users before the least recently searched are let go
 * (read again from SQLite on their next search): an engine serving a thousand users would otherwise end up
 * holding every user's vectors, about 2 GiB for a million 512-dim memories.
 */
export const DEFAULT_MAX_HELD_BYTES = 256 * 1024 * 1024;

export interface VectorCacheOptions {
  /** The store's file (for messages); its index files live in `<path>-vectors`, none for `:memory:`. */
  readonly path: string;
  readonly writable: boolean;
  /** Bound on the vectors held in memory (DEFAULT_MAX_HELD_BYTES); indexed sets are mapped files, not counted. */
  readonly maxHeldBytes?: number | undefined;
}

/**
 * Per-user vector sets, loaded on first search. Small sets are held in memory and kept current by this
 * connection's writes, the least recently searched let go beyond a bound; large ones are persisted
 * indexes that follow the store's vector log themselves, so they survive other processes' writes, which
 * drop everything else remembered here.
 */
export class VectorCache implements Remembered {
  /** Loaded users in order of last use, the least recent first. */
  private readonly users = new Map<string, ScopeVectors>();
  /** Indexed sets by user, kind and dimension. */
  private readonly indexed = new Map<string, IndexedVectors>();
  /** Recent searches' whole-scope statistics by (user, filter); cleared by any change to the vectors. */
  private readonly recent = new BoundedCache<string, { vector: Float32Array; stats: VectorStats | null }>(
    RECENT_SEARCHES,
  );
  private readonly root: string | null;

  constructor(
    private readonly db: Database.Database,
    private readonly options: VectorCacheOptions,
  ) {
    this.root = options.path === ":memory:" ? null : `${options.path}-vectors`;
  }

  search(userId: string, query: VectorQuery): Hit[] {
    let vectors = this.load(userId, query.vector.length);
    // Indexing needs a writable store (it registers the set); a read-only one keeps scanning exactly.
    if (vectors?.outgrown && this.options.writable && usearch()) {
      this.users.delete(userId);
      vectors = this.load(userId, query.vector.length);
    }
    if (!vectors) return [];
    const { hits, stats } = vectors.searchWithStats(
      query.vector,
      query.k,
      this.acceptor(userId, query.filter),
      query.filter?.kinds,
      query.approximateK,
    );
    const key = JSON.stringify([userId, query.filter ?? {}]);
    this.recent.set(key, { vector: query.vector, stats });
    return hits;
  }

  /**
   * The statistics of a recent search with the same query (one scan serves both; retrieval runs several
   * searches concurrently), else a new scan.
   */
  stats(userId: string, query: VectorQuery): VectorStats | null {
    const recent = this.recent.get(JSON.stringify([userId, query.filter ?? {}]));
    if (recent && recent.vector === query.vector) return recent.stats;
    const vectors = this.load(userId, query.vector.length);
    return vectors
      ? vectors.stats(query.vector, this.acceptor(userId, query.filter), query.filter?.kinds)
      : null;
  }

  /**
   * The vector filter for a storage filter. Kinds pick the per-kind sets; tiers and currency are tested
   * on cached attributes; anything else is resolved in SQL to the allowed ids, searched directly.
   */
  private acceptor(userId: string, filter: MemoryFilter = {}): VectorFilter {
    const tiers = filter.tiers ? new Set<string>(filter.tiers) : null;
    // Ids alone need no SQL: the cache holds this user's vectors only, and an id it lacks matches nothing.
    const { ids, ...rest } = filter;
    const allowed = needsSqlPrefilter(rest) ? this.allowedIds(userId, filter) : ids ? new Set(ids) : null;
    return {
      ...(tiers ? { accept: (attrs: VectorAttrs) => tiers.has(attrs.tier) } : {}),
      ...(filter.current ? { current: true } : {}),
      ...(allowed ? { ids: allowed } : {}),
    };
  }

  /** Copies of the loaded vectors of these ids (none when the user is not loaded). */
  copies(userId: string, ids: readonly string[]): Map<string, Float32Array> {
    const out = new Map<string, Float32Array>();
    const vectors = this.users.get(userId);
    if (!vectors) return out;
    for (const id of ids) {
      const vector = vectors.vectorOf(id);
      if (vector) out.set(id, vector);
    }
    return out;
  }

  /** Applies a committed write to a loaded user; unloaded users are read fresh on their next search. */
  written({ userId, written: upserts, removed }: CommittedWrite): void {
    this.recent.clear();
    const vectors = this.users.get(userId);
    if (!vectors) return;
    for (const id of removed) vectors.remove(id);
    for (const u of upserts) {
      // Without a vector the stored one stays: the loaded copy takes the record's new attributes.
      const vector = u.vector === undefined ? vectors.vectorOf(u.id) : u.vector;
      if (vector) vectors.upsert({ ...u, vector });
      else if (u.vector === null) vectors.remove(u.id);
    }
  }

  /** Forgets the loaded sets (indexed ones stay: they check the log on every search). */
  drop(userId?: string): void {
    this.recent.clear();
    if (userId === undefined) this.users.clear();
    else this.users.delete(userId);
  }

  /** After the user's rows are deleted: releases the user's indexes and removes their files. */
  forget(userId: string): void {
    this.drop(userId);
    for (const [key, set] of this.indexed) {
      if (JSON.parse(key)[0] === userId) {
        set.release();
        this.indexed.delete(key);
      }
    }
    if (this.root !== null) removeUserIndexes(this.root, userId);
  }

  /** Saves indexes with unsaved changes, so the next open replays nothing; the log keeps them otherwise. */
  close(): void {
    for (const set of this.indexed.values()) {
      try {
        if (this.options.writable) set.flush();
      } catch {
        // The file is only a cache of SQLite: its next open replays the log from the older file.
      }
      set.release();
    }
    this.indexed.clear();
    this.drop();
  }

  private load(userId: string, dim: number): ScopeVectors | null {
    const cached = this.users.get(userId);
    if (cached && cached.dim === dim) {
      this.users.delete(userId);
      this.users.set(userId, cached);
      return cached;
    }
    const counts = this.db
      .prepare("SELECT kind, count(*) AS n FROM memories WHERE user_id = ? GROUP BY kind")
      .all(userId) as { kind: string; n: number }[];
    const indexed = this.indexedSets(userId, dim, counts);
    const small = counts.map((c) => c.kind).filter((kind) => !indexed.has(kind));
    // Only the small kinds' rows are read (through the (user_id, kind) index), never the indexed ones'.
    const rows = this.db
      .prepare(
        `SELECT m.id, m.kind, m.tier, m.expired_at, v.embedding FROM memories m JOIN vectors v ON v.rowid = m.rowid
         WHERE m.user_id = ? AND m.kind IN (SELECT value FROM json_each(?)) ORDER BY m.rowid`,
      )
      .all(userId, JSON.stringify(small)) as {
      id: string;
      kind: string;
      tier: string;
      expired_at: string | null;
      embedding: Buffer;
    }[];
    if (rows.length === 0 && indexed.size === 0) return null;
    const vectors = new ScopeVectors(dim, indexed);
    for (const r of rows) {
      const vector = blobToVector(r.embedding);
      vectors.upsert({ id: r.id, kind: r.kind, tier: r.tier, expired: r.expired_at !== null, vector });
    }
    this.users.delete(userId);
    this.users.set(userId, vectors);
    this.letGo(userId);
    return vectors;
  }

  /** Bytes of vectors held in memory, all users together. */
  get heldBytes(): number {
    let bytes = 0;
    for (const vectors of this.users.values()) bytes += vectors.bytes;
    return bytes;
  }

  /** Lets go of the least recently searched users until the held vectors fit the bound (never `keep`). */
  private letGo(keep: string): void {
    const bound = this.options.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES;
    let bytes = this.heldBytes;
    for (const [userId, vectors] of this.users) {
      if (bytes <= bound) return;
      if (userId === keep) continue;
      bytes -= vectors.bytes;
      this.users.delete(userId);
    }
  }

  /**
   * The user's kinds searched through an index: those registered, and those with enough rows to need
   * one. None when the native index module does not load here (everything is scanned exactly then).
   */
  private indexedSets(
    userId: string,
    dim: number,
    counts: readonly { kind: string; n: number }[],
  ): Map<string, IndexedVectors> {
    const out = new Map<string, IndexedVectors>();
    if (!usearch()) return out;
    const registered = this.db
      .prepare("SELECT kind FROM vector_sets WHERE user_id = ?")
      .pluck()
      .all(userId) as string[];
    const large = counts.filter((c) => c.n >= DEFAULT_ANN_THRESHOLD).map((c) => c.kind);
    const present = new Set(counts.map((c) => c.kind));
    for (const kind of new Set([...large, ...registered.filter((k) => present.has(k))])) {
      const key = JSON.stringify([userId, kind, dim]);
      let set = this.indexed.get(key);
      if (set && !set.live) {
        this.indexed.delete(key);
        set = undefined;
      }
      set ??=
        IndexedVectors.open({
          db: this.db,
          path: this.options.path,
          userId,
          kind,
          dim,
          root: this.root,
          writable: this.options.writable,
        }) ?? undefined;
      if (!set) continue;
      set.sync();
      if (!set.live) continue;
      this.indexed.set(key, set);
      out.set(kind, set);
    }
    return out;
  }

  private allowedIds(userId: string, filter: MemoryFilter): Set<string> {
    const where = filterToSql(userId, filter);
    const rows = this.db.prepare(`SELECT m.id AS id FROM memories m WHERE ${where.sql}`).all(...where.params);
    return new Set((rows as { id: string }[]).map((r) => r.id));
  }
}
