import type Database from "better-sqlite3";
import type { ForgetReport } from "../storage-port.js";
import { ownerToken } from "./sqlite-search.js";
import { indexedText } from "./sqlite-writes.js";

interface IndexedRow {
  rowid: number;
  kind: string;
  name: string | null;
  text: string;
  context: string | null;
}

/**
 * Deletes every row of a user inside the caller's transaction. Full-text entries go through FTS5's delete
 * command with the values they were indexed with, so BM25's statistics stay exact.
 */
export function purgeUser(db: Database.Database, userId: string): ForgetReport {
  const owner = ownerToken(userId);
  const ftsDelete = db.prepare(
    "INSERT INTO memories_fts (memories_fts, rowid, owner, kind, body) VALUES ('delete', ?, ?, ?, ?)",
  );
  const rows = db
    .prepare("SELECT rowid, kind, name, text, context FROM memories WHERE user_id = ?")
    .all(userId);
  for (const r of rows as IndexedRow[]) ftsDelete.run(r.rowid, owner, `k${r.kind}`, indexedText(r));
  return {
    memories: db.prepare("DELETE FROM memories WHERE user_id = ?").run(userId).changes,
    history: db.prepare("DELETE FROM history WHERE user_id = ?").run(userId).changes,
    edges: db.prepare("DELETE FROM edges WHERE user_id = ?").run(userId).changes,
    kv: db.prepare("DELETE FROM kv WHERE user_id = ?").run(userId).changes,
    jobs: db.prepare("DELETE FROM jobs WHERE user_id = ?").run(userId).changes,
  };
}
