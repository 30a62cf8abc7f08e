import type Database from "better-sqlite3";

/** Ordered schema migrations; `user_version` records how many have run. Never edit a shipped one. */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE memories (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL,
    cube TEXT NOT NULL,
    agent_id TEXT,
    session_id TEXT,
    kind TEXT NOT NULL,
    tier TEXT NOT NULL,
    role TEXT,
    name TEXT,
    text TEXT NOT NULL,
    context TEXT,
    key TEXT,
    metadata TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL,
    version INTEGER NOT NULL,
    valid_from TEXT,
    valid_to TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    expired_at TEXT
  );
  -- Embeddings live apart from the rows, so scans and full-text joins read small pages.
  CREATE TABLE vectors (
    rowid INTEGER PRIMARY KEY REFERENCES memories(rowid) ON DELETE CASCADE,
    embedding BLOB NOT NULL
  );
  -- Both match the scan order (event time, then system time), so "latest in a session" is one index step.
  CREATE INDEX memories_user_time ON memories(user_id, coalesce(valid_from, created_at), created_at);
  CREATE INDEX memories_session_time ON memories(user_id, session_id, coalesce(valid_from, created_at), created_at);
  CREATE INDEX memories_user_kind ON memories(user_id, kind, tier);
  CREATE UNIQUE INDEX memories_key ON memories(user_id, cube, kind, key) WHERE key IS NOT NULL AND expired_at IS NULL;
  -- Rows of one user and kind take rowids from their own blocks (row-blocks.ts), so a full-text query
  -- reaches one scope through rowid ranges; the index itself holds only the searched text.
  CREATE TABLE row_blocks (
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    block INTEGER NOT NULL UNIQUE,
    PRIMARY KEY (user_id, kind, block)
  ) WITHOUT ROWID;
  CREATE VIRTUAL TABLE memories_fts USING fts5(
    body, content='', tokenize='porter unicode61 remove_diacritics 2'
  );
  INSERT INTO memories_fts(memories_fts, rank) VALUES('secure-delete', 1);
  CREATE TABLE history (
    memory_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    event TEXT NOT NULL,
    text TEXT NOT NULL,
    metadata TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (user_id, memory_id, version, event)
  );
  CREATE TABLE edges (
    user_id TEXT NOT NULL,
    src TEXT NOT NULL,
    dst TEXT NOT NULL,
    type TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (user_id, src, dst, type)
  );
  CREATE INDEX edges_dst ON edges(user_id, dst);
  CREATE TABLE kv (
    user_id TEXT NOT NULL,
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (user_id, namespace, key)
  );
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    type TEXT NOT NULL,
    payload TEXT NOT NULL,
    dedupe_key TEXT,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    run_at TEXT NOT NULL,
    lease_until TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX jobs_due ON jobs(status, run_at);
  CREATE INDEX jobs_user ON jobs(user_id, status);
  CREATE UNIQUE INDEX jobs_dedupe ON jobs(user_id, dedupe_key) WHERE dedupe_key IS NOT NULL AND status = 'queued';
  `,
  // Vector sets with a persisted index file (vector-index.ts). Every change to one of their rows is logged
  // by trigger in the writing transaction, so an index file at log position N is brought up to date by
  // replaying what follows N, in any process, and a file behind the pruned log is known to be stale.
  `
  CREATE TABLE vector_sets (
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    epoch TEXT NOT NULL,
    pruned INTEGER NOT NULL,
    PRIMARY KEY (user_id, kind)
  ) WITHOUT ROWID;
  CREATE TABLE vector_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    row INTEGER NOT NULL
  );
  CREATE INDEX vector_log_set ON vector_log(user_id, kind, seq);
  CREATE TRIGGER vector_log_put AFTER INSERT ON vectors BEGIN
    INSERT INTO vector_log (user_id, kind, row)
      SELECT m.user_id, m.kind, m.rowid FROM memories m
      JOIN vector_sets s ON s.user_id = m.user_id AND s.kind = m.kind WHERE m.rowid = NEW.rowid;
  END;
  CREATE TRIGGER vector_log_replace AFTER UPDATE ON vectors BEGIN
    INSERT INTO vector_log (user_id, kind, row)
      SELECT m.user_id, m.kind, m.rowid FROM memories m
      JOIN vector_sets s ON s.user_id = m.user_id AND s.kind = m.kind WHERE m.rowid = NEW.rowid;
  END;
  CREATE TRIGGER vector_log_drop AFTER DELETE ON vectors BEGIN
    INSERT INTO vector_log (user_id, kind, row)
      SELECT m.user_id, m.kind, m.rowid FROM memories m
      JOIN vector_sets s ON s.user_id = m.user_id AND s.kind = m.kind WHERE m.rowid = OLD.rowid;
  END;
  CREATE TRIGGER vector_log_delete AFTER DELETE ON memories BEGIN
    INSERT INTO vector_log (user_id, kind, row)
      SELECT OLD.user_id, OLD.kind, OLD.rowid
      WHERE EXISTS (SELECT 1 FROM vector_sets s WHERE s.user_id = OLD.user_id AND s.kind = OLD.kind);
  END;
  CREATE TRIGGER vector_log_update AFTER UPDATE OF user_id, kind, tier, expired_at ON memories
  WHEN OLD.user_id IS NOT NEW.user_id OR OLD.kind IS NOT NEW.kind OR OLD.tier IS NOT NEW.tier
    OR OLD.expired_at IS NOT NEW.expired_at
  BEGIN
    INSERT INTO vector_log (user_id, kind, row)
      SELECT OLD.user_id, OLD.kind, OLD.rowid
      WHERE EXISTS (SELECT 1 FROM vector_sets s WHERE s.user_id = OLD.user_id AND s.kind = OLD.kind);
    INSERT INTO vector_log (user_id, kind, row)
      SELECT NEW.user_id, NEW.kind, NEW.rowid
      WHERE (NEW.user_id IS NOT OLD.user_id OR NEW.kind IS NOT OLD.kind)
        AND EXISTS (SELECT 1 FROM vector_sets s WHERE s.user_id = NEW.user_id AND s.kind = NEW.kind);
  END;
  `,
  // Forgotten users whose bytes may still be on disk: deleted rows leave copies in pages SQLite rebuilt
  // earlier, so a forget is erased only after a VACUUM and a truncating checkpoint (sqlite-erasure.ts).
  // A row names no user: it only says which of the two steps is still to do.
  `
  CREATE TABLE erasures (
    id INTEGER PRIMARY KEY,
    stage TEXT NOT NULL CHECK (stage IN ('purged', 'vacuumed')),
    requested_at TEXT NOT NULL
  );
  `,
  // Store-wide settings, owned by no user: which embedder made the vectors, a move to another under way.
  `
  CREATE TABLE settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

function schemaVersion(db: Database.Database): number {
  return db.pragma("user_version", { simple: true }) as number;
}

/** Throws when the file was written by a newer Engram than this one. */
export function assertSchemaSupported(db: Database.Database): void {
  const current = schemaVersion(db);
  if (current > MIGRATIONS.length) {
    throw new Error(
      `database schema version ${current} is newer than this Engram (${MIGRATIONS.length}); upgrade @engram/core`,
    );
  }
}

/**
 * Brings the database to the current schema. Several processes may open a new file at once, so the
 * version is read again inside one exclusive transaction: whoever takes the lock second finds the work
 * done and runs nothing. Either every pending migration is applied, or none is.
 */
export function migrate(db: Database.Database): void {
  assertSchemaSupported(db);
  if (schemaVersion(db) === MIGRATIONS.length) return;
  db.transaction(() => {
    assertSchemaSupported(db);
    for (let v = schemaVersion(db); v < MIGRATIONS.length; v++) {
      db.exec(MIGRATIONS[v] as string);
      db.pragma(`user_version = ${v + 1}`);
    }
  }).exclusive();
}
