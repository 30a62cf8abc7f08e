import type Database from "better-sqlite3";
import type { Erasure } from "../storage-port.js";
import { BUSY_TIMEOUT_MS, isBusy } from "./busy.js";

/** How long a forget waits for other connections to stop reading the old pages before it reports pending. */
export const FORGET_WAIT_MS = 2000;
/** How often a pending erasure is tried again while the store is open. */
const RETRY_MS = 250;

const ERASED: Erasure = { state: "erased" };

interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/**
 * Finishes forgets on disk. Deleting rows with `secure_delete` zeroes the cells it frees, but SQLite
 * rebuilds a page when it splits or merges it and leaves the old cell bytes in the rebuilt page's free
 * space, so copies of a user's rows (their id, text, keys) outlive the delete. A forget is therefore
 * noted in `erasures` with the purge, then erased by a VACUUM (every page written anew) and a truncating
 * checkpoint (the new pages moved into the file, the write-ahead log emptied). The checkpoint cannot
 * finish while another connection reads an older snapshot: the erasure is then pending, tried again
 * every RETRY_MS while the store is open, at close, and by the next process that opens the store.
 */
export class SqliteErasure {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly path: string,
  ) {}

  /** Inside the purge's transaction, so a crash before the erasure leaves the note for the next open. */
  note(at: string): void {
    this.db.prepare("INSERT INTO erasures (stage, requested_at) VALUES ('purged', ?)").run(at);
  }

  /** Completes what it can, waiting up to `waitMs` for readers; throws SQLITE_BUSY while a writer holds the file. */
  complete(waitMs: number): Erasure {
    const rows = this.db.prepare("SELECT id, stage FROM erasures").all() as { id: number; stage: string }[];
    if (rows.length === 0) return ERASED;
    const purged = rows.filter((r) => r.stage === "purged").map((r) => r.id);
    if (purged.length > 0) {
      // Rebuilds the full-text index's segments without the deleted entries, then every page of the file.
      this.db.exec("INSERT INTO memories_fts(memories_fts) VALUES('optimize')");
      this.db.exec("VACUUM");
      this.db
        .prepare(`UPDATE erasures SET stage = 'vacuumed' WHERE id IN (${purged.map(() => "?").join(",")})`)
        .run(...purged);
    }
    const result = this.checkpoint(waitMs);
    if (result.busy !== 0) {
      return {
        state: "pending",
        reason:
          `another connection to ${this.path} is reading an older snapshot, whose pages still hold forgotten ` +
          `data (${result.log - result.checkpointed} of ${result.log} pages of the write-ahead log not yet ` +
          "moved into the file); the erasure completes when it finishes reading",
      };
    }
    const done = rows.map((r) => r.id);
    this.db.prepare(`DELETE FROM erasures WHERE id IN (${done.map(() => "?").join(",")})`).run(...done);
    // Leaves an empty log behind when it can; the note just deleted held nothing of anyone.
    this.checkpoint(0);
    const left = this.db.prepare("SELECT count(*) FROM erasures").pluck().get() as number;
    return left === 0
      ? ERASED
      : {
          state: "pending",
          reason: `another process forgot a user in ${this.path} meanwhile; its erasure is running`,
        };
  }

  /** Without writing (a read-only store): pending while any forget is noted but not yet erased. */
  status(): Erasure {
    const left = this.db.prepare("SELECT count(*) FROM erasures").pluck().get() as number;
    if (left === 0) return ERASED;
    return {
      state: "pending",
      reason: `${left} forget(s) in ${this.path} not yet erased from disk; a process that opens the store for writing completes them`,
    };
  }

  /** As `complete`, but a busy file or a failure leaves the erasure pending with the reason. */
  tryComplete(waitMs: number): Erasure {
    try {
      return this.complete(waitMs);
    } catch (error) {
      const reason = isBusy(error)
        ? `another process is writing ${this.path}; the erasure is tried again`
        : `the erasure failed and is tried again: ${(error as Error).message}`;
      return { state: "pending", reason };
    }
  }

  /** Keeps trying in the background (without holding the process open) until erased or stopped. */
  retryLater(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.tryComplete(0).state === "erased") this.stop();
    }, RETRY_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private checkpoint(waitMs: number): CheckpointResult {
    // The busy handler is what waits for readers; a short wait for the checkpoint alone.
    this.db.pragma(`busy_timeout = ${waitMs}`);
    try {
      return (this.db.pragma("wal_checkpoint(TRUNCATE)") as CheckpointResult[])[0] as CheckpointResult;
    } finally {
      this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  }
}
