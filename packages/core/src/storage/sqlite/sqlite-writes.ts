import type Database from "better-sqlite3";
import { cubeKey, fullTextBody, type MemoryRecord, passageCount, type Scope } from "../../model/index.js";
import { idTaken } from "../backend-rules.js";
import { expectationConflicts } from "../expected-records.js";
import type { WriteBatch } from "../storage-port.js";
import { RowBlocks } from "./row-blocks.js";
import { blobToVector, type MemoryRow, RECORD_COLUMNS, recordToParams, rowToRecord } from "./row-mapping.js";

const MEMORY_COLUMNS = RECORD_COLUMNS.split(", ").slice(1);

const STATEMENTS = [
  "find",
  "record",
  "insert",
  "update",
  "ftsInsert",
  "ftsDelete",
  "deleteMemory",
  "deleteHistory",
  "deleteEdges",
  "history",
  "edge",
  "job",
  "kvPut",
  "kvRestore",
  "kvDelete",
  "vectorPut",
  "vectorGet",
  "vectorDelete",
  "secureDeleteOn",
  "secureDeleteOff",
] as const;
export type WriteStatements = Record<(typeof STATEMENTS)[number], Database.Statement> & {
  readonly blocks: RowBlocks;
};

/** Prepared statements for the write path, compiled once per connection. */
export function prepareWrites(db: Database.Database): WriteStatements {
  const placeholders = MEMORY_COLUMNS.map((c) => `@${c}`).join(", ");
  const updates = MEMORY_COLUMNS.filter((c) => c !== "id")
    .map((c) => `${c} = @${c}`)
    .join(", ");
  return {
    find: db.prepare(
      `SELECT rowid, user_id, kind, name, text, context, ${BODY_METADATA_SQL} FROM memories WHERE id = ?`,
    ),
    record: db.prepare(`SELECT ${RECORD_COLUMNS} FROM memories m WHERE m.user_id = ? AND m.id = ?`).raw(),
    insert: db.prepare(
      `INSERT INTO memories (rowid, ${MEMORY_COLUMNS.join(", ")}) VALUES (@rowid, ${placeholders})`,
    ),
    update: db.prepare(`UPDATE memories SET ${updates} WHERE rowid = @rowid`),
    ftsInsert: db.prepare("INSERT INTO memories_fts (rowid, body) VALUES (?, ?)"),
    vectorPut: db.prepare("INSERT OR REPLACE INTO vectors (rowid, embedding) VALUES (?, ?)"),
    vectorGet: db.prepare("SELECT embedding FROM vectors WHERE rowid = ?"),
    vectorDelete: db.prepare("DELETE FROM vectors WHERE rowid = ?"),
    // FTS5 takes the setting only as a literal, and only while it holds no pending change (a batch
    // sets it before its first full-text change, see applyFullText).
    secureDeleteOn: db.prepare("INSERT INTO memories_fts (memories_fts, rank) VALUES ('secure-delete', 1)"),
    secureDeleteOff: db.prepare("INSERT INTO memories_fts (memories_fts, rank) VALUES ('secure-delete', 0)"),
    // FTS5's own delete command with the indexed values keeps BM25's document statistics exact.
    ftsDelete: db.prepare("INSERT INTO memories_fts (memories_fts, rowid, body) VALUES ('delete', ?, ?)"),
    deleteMemory: db.prepare("DELETE FROM memories WHERE rowid = ?"),
    deleteHistory: db.prepare("DELETE FROM history WHERE user_id = ? AND memory_id = ?"),
    deleteEdges: db.prepare("DELETE FROM edges WHERE user_id = ? AND (src = ? OR dst = ?)"),
    history: db.prepare(
      `INSERT OR REPLACE INTO history (memory_id, user_id, version, event, text, metadata, at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    edge: db.prepare(
      "INSERT OR IGNORE INTO edges (user_id, src, dst, type, created_at) VALUES (?, ?, ?, ?, ?)",
    ),
    job: db.prepare(
      `INSERT INTO jobs (id, user_id, type, payload, dedupe_key, status, attempts, last_error, run_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    kvPut: db.prepare(
      `INSERT INTO kv (user_id, namespace, key, value, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    ),
    // An import restores the entry's times as exported.
    kvRestore: db.prepare(
      `INSERT INTO kv (user_id, namespace, key, value, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, namespace, key) DO UPDATE SET value = excluded.value,
         created_at = excluded.created_at, updated_at = excluded.updated_at`,
    ),
    kvDelete: db.prepare("DELETE FROM kv WHERE user_id = ? AND namespace = ? AND key = ?"),
    blocks: new RowBlocks(db),
  };
}

interface FoundRow {
  rowid: number;
  user_id: string;
  kind: string;
  name: string | null;
  text: string;
  context: string | null;
  passages: number | null;
  fact_keys: string | null;
}

/** The metadata a row's index body needs (its passage count and fact keys), as SQL columns. */
export const BODY_METADATA_SQL =
  "json_extract(metadata, '$.passages') AS passages, json_extract(metadata, '$.factKeys') AS fact_keys";

/** The body a stored row was indexed with (empty: not in the index). */
export function indexedText(
  row: Pick<FoundRow, "name" | "text" | "context" | "passages" | "fact_keys">,
): string {
  const metadata = row.fact_keys ? { factKeys: JSON.parse(row.fact_keys) as unknown } : {};
  return fullTextBody({ ...row, metadata, passages: row.passages ?? 0 });
}

type Upsert = NonNullable<WriteBatch["upsert"]>[number];

/**
 * Full-text changes of a batch, applied together after its row writes. FTS5 flushes its pending changes
 * to disk at every statement savepoint, and a write to `memories` (triggers) opens one; interleaved, each
 * entry became a segment of its own and an add of 100,000 turns spent 35 s merging them. In a row, they
 * are flushed as one segment at commit.
 */
type FullTextOp = readonly ["insert" | "delete", number, string];

function applyFullText(s: WriteStatements, ops: readonly FullTextOp[], secure: boolean): void {
  // An empty body (a turn searched by its passages) is not in the index: neither added nor removed.
  const changes = ops.filter(([, , body]) => body !== "");
  // Secure deletion rewrites the index pages that hold the deleted terms (erased at once); without it
  // FTS5 records the deletion and drops the terms when it next merges, several times cheaper.
  if (changes.some(([op]) => op === "delete")) (secure ? s.secureDeleteOn : s.secureDeleteOff).run();
  for (const [op, rowid, body] of changes) (op === "insert" ? s.ftsInsert : s.ftsDelete).run(rowid, body);
}

/**
 * Inserts or updates one record. A row keeps its rowid while its kind stays, and re-indexes only when
 * what is searched changed (a tier move or a metadata change does not); a new kind moves the row into
 * that kind's rowid block. Without a vector, the stored one stays (a new row has none); returns the vector
 * a kind change carried to the new row, for the caller's caches.
 */
function upsertRecord(
  s: WriteStatements,
  scope: Scope,
  { record, vector }: Upsert,
  reindexed: number[],
  fullText: FullTextOp[],
): Float32Array | null {
  const params = recordToParams(record);
  const row = s.find.get(record.id) as FoundRow | undefined;
  if (row && row.user_id !== scope.userId) throw idTaken(record.id);
  const body = fullTextBody({ ...record, passages: passageCount(record) });
  let rowid: number;
  // Left out, the stored vector stays; a kind change moves the row, so its vector moves with it.
  let keep: Float32Array | Buffer | null | undefined = vector;
  if (row && row.kind === record.kind) {
    rowid = row.rowid;
    s.update.run({ ...params, rowid });
    if (indexedText(row) !== body) {
      reindexed.push(rowid);
      fullText.push(["delete", rowid, indexedText(row)], ["insert", rowid, body]);
    }
  } else {
    if (keep === undefined) {
      keep = row
        ? ((s.vectorGet.get(row.rowid) as { embedding: Buffer } | undefined)?.embedding ?? null)
        : null;
    }
    if (row) {
      reindexed.push(row.rowid);
      fullText.push(["delete", row.rowid, indexedText(row)]);
      s.deleteMemory.run(row.rowid);
    }
    rowid = s.blocks.next(scope.userId, record.kind);
    s.insert.run({ ...params, rowid });
    fullText.push(["insert", rowid, body]);
  }
  if (keep instanceof Buffer) {
    s.vectorPut.run(rowid, keep);
    return blobToVector(keep);
  }
  if (keep) s.vectorPut.run(rowid, Buffer.from(keep.buffer, keep.byteOffset, keep.byteLength));
  else if (keep === null) s.vectorDelete.run(rowid);
  return null;
}

/** Stores the inserts whose id is new; returns those stored, and the ids of those left as they were. */
function insertRecords(
  s: WriteStatements,
  scope: Scope,
  inserts: readonly Upsert[],
  reindexed: number[],
  fullText: FullTextOp[],
): { inserted: Upsert[]; kept: Set<string> } {
  const inserted: Upsert[] = [];
  const kept = new Set<string>();
  const ids = new Set<string>();
  for (const insert of inserts) {
    const { id } = insert.record;
    // The same id twice in one batch: the first one stands, and its history rows with it.
    if (ids.has(id)) continue;
    ids.add(id);
    const row = s.find.get(id) as FoundRow | undefined;
    if (row && row.user_id !== scope.userId) throw idTaken(id);
    if (row) kept.add(id);
    else {
      upsertRecord(s, scope, insert, reindexed, fullText);
      inserted.push(insert);
    }
  }
  return { inserted, kept };
}

/** The batch's `expect` records not stored as given now (read inside the write's transaction). */
function conflicts(s: WriteStatements, scope: Scope, batch: WriteBatch): string[] {
  const expected = batch.expect ?? [];
  if (expected.length === 0) return [];
  const stored = new Map<string, MemoryRecord>();
  for (const { id } of expected) {
    // Another user's record under this id reads as absent: a conflict, as a removed one is.
    const row = s.record.get(scope.userId, id) as MemoryRow | undefined;
    if (row) stored.set(id, rowToRecord(row));
  }
  return expectationConflicts(expected, stored);
}

/**
 * Applies a batch inside the caller's transaction. Returns the ids actually removed, the inserts actually
 * stored, and the rowids whose full-text entry was deleted or rewritten (not those only appended). A
 * conditional batch whose `expect` no longer holds changes nothing and returns the conflicting ids.
 */
export function applyBatch(
  s: WriteStatements,
  scope: Scope,
  batch: WriteBatch,
  now: string,
): {
  removed: string[];
  inserted: Upsert[];
  reindexed: number[];
  conflicts: string[];
  /** Vectors kept through a kind change (the row moved), by memory id. */
  moved: Map<string, Float32Array>;
} {
  const conflicting = conflicts(s, scope, batch);
  const moved = new Map<string, Float32Array>();
  if (conflicting.length) return { removed: [], inserted: [], reindexed: [], conflicts: conflicting, moved };
  const removed: string[] = [];
  const reindexed: number[] = [];
  const fullText: FullTextOp[] = [];
  for (const id of batch.deleteIds ?? []) {
    const row = s.find.get(id) as FoundRow | undefined;
    if (!row || row.user_id !== scope.userId) continue;
    reindexed.push(row.rowid);
    fullText.push(["delete", row.rowid, indexedText(row)]);
    s.deleteMemory.run(row.rowid);
    s.deleteHistory.run(scope.userId, id);
    s.deleteEdges.run(scope.userId, id, id);
    removed.push(id);
  }
  for (const upsert of batch.upsert ?? []) {
    const carried = upsertRecord(s, scope, upsert, reindexed, fullText);
    if (carried) moved.set(upsert.record.id, carried);
  }
  const { inserted, kept } = insertRecords(s, scope, batch.insert ?? [], reindexed, fullText);
  for (const v of batch.history ?? []) {
    if (kept.has(v.memoryId)) continue;
    s.history.run(v.memoryId, v.userId, v.version, v.event, v.text, JSON.stringify(v.metadata), v.at);
  }
  for (const e of batch.edges ?? []) s.edge.run(e.userId, e.from, e.to, e.type, e.createdAt);
  for (const j of batch.jobs ?? []) {
    const r = j.restore;
    const state = [r?.status ?? "queued", r?.attempts ?? 0, r?.lastError ?? null] as const;
    const times = [r?.createdAt ?? now, r?.updatedAt ?? now] as const;
    s.job.run(
      j.id,
      scope.userId,
      j.type,
      JSON.stringify(j.payload),
      j.dedupeKey ?? null,
      ...state,
      j.runAt,
      ...times,
    );
  }
  for (const e of batch.kvPut ?? []) {
    const restore = e.createdAt !== undefined || e.updatedAt !== undefined;
    const times = [e.createdAt ?? now, e.updatedAt ?? now] as const;
    (restore ? s.kvRestore : s.kvPut).run(scope.userId, cubeKey(e.namespace), e.key, e.value, ...times);
  }
  for (const e of batch.kvDelete ?? []) s.kvDelete.run(scope.userId, cubeKey(e.namespace), e.key);
  applyFullText(s, fullText, batch.derivedText !== true);
  return { removed, inserted, reindexed, conflicts: [], moved };
}
