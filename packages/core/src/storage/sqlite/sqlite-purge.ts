import type Database from "better-sqlite3";
import type { ForgetCounts } from "../storage-port.js";
import { RowBlocks } from "./row-blocks.js";
import { BODY_METADATA_SQL, indexedText } from "./sqlite-writes.js";

interface IndexedRow {
  rowid: number;
  name: string | null;
  text: string;
  context: string | null;
  passages: number | null;
  fact_keys: string | null;
}

/**
 * Deletes every row of a user inside the caller's transaction. Full-text entries go through FTS5's delete
 * command with the values they were indexed with, so BM25's statistics stay exact.
 */
export function purgeUser(db: Database.Database, userId: string): ForgetCounts {
  const ftsDelete = db.prepare(
    "INSERT INTO memories_fts (memories_fts, rowid, body) VALUES ('delete', ?, ?)",
  );
  // Erased from the index pages at once (a batch of tier work may have left the setting off).
  db.exec("INSERT INTO memories_fts (memories_fts, rank) VALUES ('secure-delete', 1)");
  const rows = db
    .prepare(`SELECT rowid, name, text, context, ${BODY_METADATA_SQL} FROM memories WHERE user_id = ?`)
    .all(userId);
  for (const r of rows as IndexedRow[]) {
    const body = indexedText(r);
    if (body) ftsDelete.run(r.rowid, body);
  }
  // Unregistered first, so the deletes below log nothing; the caller deletes the index files on commit.
  db.prepare("DELETE FROM vector_sets WHERE user_id = ?").run(userId);
  db.prepare("DELETE FROM vector_log WHERE user_id = ?").run(userId);
  const memories = db.prepare("DELETE FROM memories WHERE user_id = ?").run(userId).changes;
  new RowBlocks(db).forget(userId);
  return {
    memories,
    history: db.prepare("DELETE FROM history WHERE user_id = ?").run(userId).changes,
    edges: db.prepare("DELETE FROM edges WHERE user_id = ?").run(userId).changes,
    kv: db.prepare("DELETE FROM kv WHERE user_id = ?").run(userId).changes,
    jobs: db.prepare("DELETE FROM jobs WHERE user_id = ?").run(userId).changes,
  };
}
