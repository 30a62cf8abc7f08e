/** Most visits held for one user before older ones are dropped (a store that keeps failing to write). */
const MAX_PENDING_PER_USER = 10_000;
const RETRY_MS = 1000;
/** Visits wait this long to be written together: one durable write a second at most, not one per call. */
const WRITE_EVERY_MS = 1000;

/**
 * Segment visits seen by retrieval, written as queued `visit` jobs after the call returns: every second,
 * one job per user, so a retrieval pays for no durable write of its own. Visits are heat bookkeeping, not
 * memory: a crash can lose the last second's visits, never a memory. A failed write keeps the visits and
 * tries again; `flush`, `close` and `forget` write or drop what is pending.
 */
export class VisitLog {
  private pending = new Map<string, string[]>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown = null;

  /** `onError` hears of the first failed write after a good one (the visits are kept and tried again). */
  constructor(
    private readonly write: (userId: string, segmentIds: string[]) => Promise<void>,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** The last write error (cleared by the next successful flush). */
  get error(): unknown {
    return this.failure;
  }

  record(userId: string, segmentIds: readonly string[]): void {
    const list = this.pending.get(userId) ?? [];
    list.push(...segmentIds);
    if (list.length > MAX_PENDING_PER_USER) list.splice(0, list.length - MAX_PENDING_PER_USER);
    this.pending.set(userId, list);
    this.schedule(WRITE_EVERY_MS);
  }

  /** Forgets a user's unwritten visits (the user is being erased). */
  drop(userId: string): void {
    this.pending.delete(userId);
  }

  /** Writes every pending visit; resolves when done (a failure stays pending and is reported by `error`). */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.writeAll());
    return this.writing;
  }

  /** Stops the timer; pending visits are written by a last flush. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }

  private schedule(ms: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, ms);
    this.timer.unref();
  }

  private async writeAll(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    for (const [userId, segmentIds] of batch) {
      try {
        await this.write(userId, segmentIds);
        this.failure = null;
      } catch (error) {
        if (this.failure === null) this.onError(error);
        this.failure = error;
        const later = this.pending.get(userId) ?? [];
        this.pending.set(userId, [...segmentIds, ...later].slice(-MAX_PENDING_PER_USER));
        this.schedule(RETRY_MS);
      }
    }
  }
}
