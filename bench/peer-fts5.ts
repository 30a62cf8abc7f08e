// Full-text search alone: a plain SQLite FTS5 table per conversation (default unicode61 tokenizer),
// ranked by FTS5's built-in bm25(), the question's words OR-ed. No embedding, no stopword list.
import type { LocomoConversation } from "@engram/cli/locomo";
import Database from "better-sqlite3";
import { type PeerSystem, peerDocument } from "./peer-system.js";

/** The question's distinct words, each quoted (FTS5 syntax cannot break), any of them matching. */
export function ftsQuery(question: string): string {
  const words = new Set(question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  return [...words].map((w) => `"${w}"`).join(" OR ");
}

export function fts5Peer(conversations: readonly LocomoConversation[]): PeerSystem {
  const db = new Database(":memory:");
  const tables = new Map<string, string>();
  for (const [i, c] of conversations.entries()) {
    const table = `turns_${i}`;
    tables.set(c.sampleId, table);
    db.exec(`CREATE VIRTUAL TABLE ${table} USING fts5(text, dia_id UNINDEXED)`);
    const insert = db.prepare(`INSERT INTO ${table} (text, dia_id) VALUES (?, ?)`);
    db.transaction(() => {
      for (const t of c.turns) insert.run(peerDocument(t), t.diaId);
    })();
  }
  const statements = new Map(
    [...tables].map(([id, table]) => [
      id,
      db.prepare(`SELECT dia_id FROM ${table} WHERE ${table} MATCH ? ORDER BY bm25(${table}) LIMIT ?`),
    ]),
  );
  return {
    name: "FTS5 BM25",
    method:
      "better-sqlite3 :memory:, one FTS5 table (unicode61) per conversation over `speaker: text [shares caption]`; the question's distinct words OR-ed, ORDER BY bm25() LIMIT k.",
    async search(c, question, k) {
      const query = ftsQuery(question);
      if (!query) return [];
      const rows = statements.get(c.sampleId)?.all(query, k) as { dia_id: string }[];
      return rows.map((r) => r.dia_id);
    },
    async close() {
      db.close();
    },
  };
}
