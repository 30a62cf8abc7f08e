import type Database from "better-sqlite3";
import type { JobStatus, StorageStats } from "../storage-port.js";

function grouped(db: Database.Database, sql: string, userId: string | undefined): Record<string, number> {
  const rows = db.prepare(sql).all(userId ?? null, userId ?? null) as { k: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.k, r.n]));
}

function single(db: Database.Database, sql: string, userId: string | undefined): number {
  return (db.prepare(sql).get(userId ?? null, userId ?? null) as { n: number }).n;
}

/** Counts for one user, or for the whole store when no user is given. */
export function readStats(db: Database.Database, userId?: string): StorageStats {
  const byUser = "(? IS NULL OR user_id = ?)";
  const byKind = grouped(
    db,
    `SELECT kind AS k, count(*) AS n FROM memories WHERE ${byUser} GROUP BY kind`,
    userId,
  );
  return {
    memories: Object.values(byKind).reduce((a, b) => a + b, 0),
    byKind,
    byTier: grouped(
      db,
      `SELECT tier AS k, count(*) AS n FROM memories WHERE ${byUser} GROUP BY tier`,
      userId,
    ),
    vectors: single(
      db,
      `SELECT count(*) AS n FROM memories JOIN vectors v ON v.rowid = memories.rowid WHERE ${byUser}`,
      userId,
    ),
    history: single(db, `SELECT count(*) AS n FROM history WHERE ${byUser}`, userId),
    edges: single(db, `SELECT count(*) AS n FROM edges WHERE ${byUser}`, userId),
    kv: single(db, `SELECT count(*) AS n FROM kv WHERE ${byUser}`, userId),
    jobs: grouped(
      db,
      `SELECT status AS k, count(*) AS n FROM jobs WHERE ${byUser} GROUP BY status`,
      userId,
    ) as Partial<Record<JobStatus, number>>,
    users: (
      db
        .prepare(
          `SELECT count(*) AS n FROM (SELECT user_id FROM memories WHERE ${byUser}
           UNION SELECT user_id FROM kv WHERE ${byUser} UNION SELECT user_id FROM jobs WHERE ${byUser})`,
        )
        .get(...Array(6).fill(userId ?? null)) as { n: number }
    ).n,
  };
}
