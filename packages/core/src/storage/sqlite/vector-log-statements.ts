import type Database from "better-sqlite3";

/** A `vector_log` entry joined with the row it names now (nulls: the row or its vector is gone). */
export interface ChangeRow {
  seq: number;
  row: number;
  id: string | null;
  tier: string | null;
  expired_at: string | null;
  embedding: Buffer | null;
}

/** The statements an indexed vector set reads and prunes its log with, prepared once per set. */
type Name =
  | "set"
  | "register"
  | "head"
  | "rows"
  | "vectors"
  | "vectorsOf"
  | "changes"
  | "prune"
  | "setPruned";

export function statements(db: Database.Database): Record<Name, Database.Statement> {
  return {
    set: db.prepare("SELECT epoch, pruned FROM vector_sets WHERE user_id = ? AND kind = ?"),
    register: db.prepare(
      `INSERT OR IGNORE INTO vector_sets (user_id, kind, epoch, pruned)
       VALUES (?, ?, ?, (SELECT coalesce(max(seq), 0) FROM vector_log))`,
    ),
    head: db.prepare("SELECT max(seq) AS seq FROM vector_log WHERE user_id = ? AND kind = ?"),
    rows: db.prepare(
      `SELECT m.rowid AS row, m.id, m.tier, m.expired_at FROM memories m JOIN vectors v ON v.rowid = m.rowid
       WHERE m.user_id = ? AND m.kind = ? AND length(v.embedding) = ?`,
    ),
    vectors: db.prepare(
      `SELECT v.rowid AS row, v.embedding FROM memories m JOIN vectors v ON v.rowid = m.rowid
       WHERE m.user_id = ? AND m.kind = ? AND length(v.embedding) = ?`,
    ),
    vectorsOf: db.prepare(
      "SELECT rowid AS row, embedding FROM vectors WHERE rowid IN (SELECT value FROM json_each(?)) AND length(embedding) = ?",
    ),
    changes: db.prepare(
      `SELECT l.seq, l.row, m.id, m.tier, m.expired_at, v.embedding FROM vector_log l
       LEFT JOIN memories m ON m.rowid = l.row AND m.user_id = l.user_id AND m.kind = l.kind
       LEFT JOIN vectors v ON v.rowid = m.rowid AND length(v.embedding) = ?
       WHERE l.user_id = ? AND l.kind = ? AND l.seq > ? ORDER BY l.seq`,
    ),
    prune: db.prepare("DELETE FROM vector_log WHERE user_id = ? AND kind = ? AND seq <= ?"),
    setPruned: db.prepare("UPDATE vector_sets SET pruned = max(pruned, ?) WHERE user_id = ? AND kind = ?"),
  };
}
