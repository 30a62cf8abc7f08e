import { createHash } from "node:crypto";
import { createRequire } from "node:module";

interface RawDatabase {
  prepare(source: string): { get(...params: unknown[]): unknown };
  close(): void;
}
type RawDatabaseConstructor = new (path: string, options?: { readonly?: boolean }) => RawDatabase;

const require = createRequire(import.meta.url);
const Database = require("better-sqlite3") as RawDatabaseConstructor;

/**
 * Everything a store keeps that a user could lose or see changed: every memory (id, version, tier,
 * status, expiry, text, metadata), history, edges, vectors, key-value state, and jobs other than
 * `visit` bookkeeping (written a second after a successful retrieval). Read straight from the tables.
 */
const DIGEST_SQL = `SELECT
  (SELECT count(*) || ':' || ifnull(group_concat(id || '/' || user_id || '/' || version || '/' || tier || '/' || status || '/'
     || ifnull(expired_at, '') || '/' || length(text) || '/' || hex(substr(text, 1, 64)) || '/' || metadata, ';'), '')
     FROM (SELECT * FROM memories ORDER BY id)) AS memories,
  (SELECT count(*) || ':' || ifnull(sum(length(text)), 0) FROM history) AS history,
  (SELECT count(*) FROM edges) AS edges,
  (SELECT count(*) FROM vectors) AS vectors,
  (SELECT count(*) || ':' || ifnull(group_concat(key || '=' || length(value), ';'), '')
     FROM (SELECT * FROM kv ORDER BY key)) AS kv,
  (SELECT count(*) || ':' || ifnull(group_concat(type || '/' || status || '/' || attempts, ';'), '')
     FROM (SELECT * FROM jobs WHERE type <> 'visit' ORDER BY id)) AS jobs`;

/** A read-only connection to a store file that digests its content, bypassing Engram. */
export class StoreDigest {
  private readonly db: RawDatabase;
  constructor(path: string) {
    this.db = new Database(path, { readonly: true });
  }

  digest(): string {
    return createHash("sha256")
      .update(JSON.stringify(this.db.prepare(DIGEST_SQL).get()))
      .digest("hex");
  }

  close(): void {
    this.db.close();
  }
}
