import type Database from "better-sqlite3";
import type { ClaimOptions, Job, JobStatus } from "../storage-port.js";

interface JobRow {
  id: string;
  user_id: string;
  type: string;
  payload: string;
  dedupe_key: string | null;
  status: JobStatus;
  attempts: number;
  last_error: string | null;
  run_at: string;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
}

function rowToJob(row: JobRow): Job {
  return {
    id: row.id,
    userId: row.user_id,
    type: row.type,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    ...(row.dedupe_key === null ? {} : { dedupeKey: row.dedupe_key }),
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    runAt: row.run_at,
    leaseUntil: row.lease_until,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const DONE_RETENTION_MS = 24 * 3600 * 1000;

/** The durable job queue in the same SQLite file: a job is leased, then completed or failed. */
export class SqliteQueue {
  constructor(private readonly db: Database.Database) {}

  /**
   * Leases due jobs in one immediate transaction, so two processes never take the same job. A queued job
   * waits while a job with its dedupe key runs for the same user under a live lease: two tier runs of
   * one user in two processes would each move the same pages.
   */
  claim(options: ClaimOptions): Job[] {
    const leaseUntil = new Date(Date.parse(options.now) + options.leaseMs).toISOString();
    const types = options.types ?? null;
    const typeClause = types ? `AND type IN (${types.map(() => "?").join(",")})` : "";
    return this.db
      .transaction(() => {
        // A running job whose lease ran out belongs to a worker that died: take it again.
        const rows = this.db
          .prepare(
            `SELECT * FROM jobs j WHERE ((status = 'queued' AND run_at <= ?) OR (status = 'running' AND lease_until <= ?))
           ${typeClause}
           AND NOT (status = 'queued' AND dedupe_key IS NOT NULL AND EXISTS (
             SELECT 1 FROM jobs r WHERE r.user_id = j.user_id AND r.status = 'running'
             AND r.dedupe_key = j.dedupe_key AND r.lease_until > ?))
           ORDER BY run_at, created_at LIMIT ?`,
          )
          .all(options.now, options.now, ...(types ?? []), options.now, options.limit) as JobRow[];
        const lease = this.db.prepare(
          "UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_until = ?, updated_at = ? WHERE id = ?",
        );
        for (const row of rows) lease.run(leaseUntil, options.now, row.id);
        return rows.map((row) =>
          rowToJob({ ...row, status: "running", attempts: row.attempts + 1, lease_until: leaseUntil }),
        );
      })
      .immediate();
  }

  /**
   * Extends the lease of a job this worker still holds: running at `attempt` (every claim counts one, so
   * a job taken over by another worker has moved on). False when it was lost.
   */
  renew(id: string, attempt: number, leaseUntil: string, now: string): boolean {
    const changed = this.db
      .prepare(
        "UPDATE jobs SET lease_until = ?, updated_at = ? WHERE id = ? AND status = 'running' AND attempts = ?",
      )
      .run(leaseUntil, now, id, attempt).changes;
    return changed === 1;
  }

  /** Marks a job done; with `attempt`, only while this worker still holds it (a late worker changes nothing). */
  complete(id: string, now: string, attempt?: number): void {
    this.db
      .transaction(() => {
        this.db
          .prepare(
            `UPDATE jobs SET status = 'done', lease_until = NULL, last_error = NULL, updated_at = ?
           WHERE id = ? AND (? IS NULL OR (status = 'running' AND attempts = ?))`,
          )
          .run(now, id, attempt ?? null, attempt ?? null);
        // Done jobs stay visible for a day, then go: the queue does not grow with every write.
        const dayAgo = new Date(Date.parse(now) - DONE_RETENTION_MS).toISOString();
        this.db.prepare("DELETE FROM jobs WHERE status = 'done' AND updated_at < ?").run(dayAgo);
      })
      .immediate();
  }

  fail(id: string, error: string, retryAt: string | null, now: string, attempt?: number): void {
    this.db
      .transaction(() => {
        if (attempt !== undefined && !this.holds(id, attempt)) return;
        if (retryAt && this.queuedTwin(id)) {
          // A job with the same dedupe key is already queued and will do the same (idempotent) work.
          this.db
            .prepare(
              "UPDATE jobs SET status = 'done', last_error = ?, lease_until = NULL, updated_at = ? WHERE id = ?",
            )
            .run(`${error} (merged into the queued job with the same dedupe key)`, now, id);
          return;
        }
        this.db
          .prepare(
            `UPDATE jobs SET status = ?, last_error = ?, run_at = coalesce(?, run_at), lease_until = NULL,
           updated_at = ? WHERE id = ?`,
          )
          .run(retryAt ? "queued" : "failed", error, retryAt, now, id);
      })
      .immediate();
  }

  private holds(id: string, attempt: number): boolean {
    const row = this.db
      .prepare("SELECT 1 FROM jobs WHERE id = ? AND status = 'running' AND attempts = ?")
      .get(id, attempt);
    return row !== undefined;
  }

  private queuedTwin(id: string): boolean {
    const row = this.db
      .prepare(
        `SELECT 1 FROM jobs j JOIN jobs me ON me.id = ? WHERE j.user_id = me.user_id AND me.dedupe_key IS NOT NULL
         AND j.dedupe_key = me.dedupe_key AND j.status = 'queued' AND j.id != me.id`,
      )
      .get(id);
    return row !== undefined;
  }

  list(userId: string, status?: JobStatus): Job[] {
    const rows = this.db
      .prepare("SELECT * FROM jobs WHERE user_id = ? AND (? IS NULL OR status = ?) ORDER BY created_at")
      .all(userId, status ?? null, status ?? null) as JobRow[];
    return rows.map(rowToJob);
  }
}
