import type { RunJobsReport } from "./run-due-jobs.js";

/**
 * Runs queued jobs in this process: soon after work is queued (`kick`), and on a slow poll for jobs that
 * become due later (retries) or were queued by another process. One run at a time; timers never keep the
 * process alive.
 */
export class Worker {
  private running: Promise<RunJobsReport> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private stopped = false;
  private lastError: unknown = null;
  private gate: Promise<void> = Promise.resolve();

  constructor(
    private readonly runOnce: () => Promise<RunJobsReport>,
    pollMs = 2000,
  ) {
    if (pollMs > 0) {
      this.poll = setInterval(() => this.kick(), pollMs);
      this.poll.unref();
    }
  }

  /** The last error a background run hit (background runs never throw into the caller). */
  get error(): unknown {
    return this.lastError;
  }

  kick(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.start().catch((e: unknown) => {
        this.lastError = e;
      });
    }, 0);
    this.timer.unref();
  }

  /** Runs until no job is due, including work queued while it runs. */
  async flush(): Promise<RunJobsReport> {
    const total: RunJobsReport = { completed: 0, retried: 0, failed: 0 };
    for (;;) {
      const report = await this.start();
      total.completed += report.completed;
      total.retried += report.retried;
      total.failed += report.failed;
      if (report.completed + report.retried + report.failed === 0) return total;
    }
  }

  /** Runs `fn` with no job running in this process (e.g. forget: no job may write the user back). */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.gate;
    let release = () => {};
    this.gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    await this.running?.catch(() => undefined);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.poll) clearInterval(this.poll);
    await this.running?.catch(() => undefined);
  }

  private async start(): Promise<RunJobsReport> {
    await this.gate;
    if (this.running) {
      this.again = true;
      return this.running.then(() => this.start());
    }
    this.running = this.runOnce().finally(() => {
      this.running = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.kick();
      }
    });
    return this.running;
  }
}
