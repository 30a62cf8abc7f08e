import { emptyReport, type JobProgress, type RunJobsReport } from "./run-due-jobs.js";

/** What a run is given: a signal that stops it at the running job's next checkpoint, and progress. */
export interface RunControl {
  readonly signal: AbortSignal;
  readonly onProgress?: ((progress: JobProgress) => void) | undefined;
}

export interface FlushOptions {
  /** Stops the flush at the running job's next checkpoint (its finished steps stay stored); it rejects. */
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: JobProgress) => void) | undefined;
}

/** The reason a run is stopped by the worker itself (exclusive work, close): the run resumes later. */
const PAUSED = Symbol("paused");

/**
 * Runs queued jobs in this process: soon after work is queued (`kick`), and on a slow poll for jobs that
 * become due later (retries) or were queued by another process. One run at a time; timers never keep the
 * process alive. `exclusive` and `stop` pause the current run at its next checkpoint instead of waiting
 * for a long job to finish.
 */
/** One run's report, and whether the worker paused it (its stopped job is queued again, due now). */
interface Run {
  readonly report: RunJobsReport;
  readonly paused: boolean;
}

export class Worker {
  private running: Promise<Run> | null = null;
  private pause: AbortController | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private stopped = false;
  private gate: Promise<void> = Promise.resolve();

  /**
   * `onError` hears of a background run that failed (a flush's failure goes to its caller instead): the
   * run is tried again on the next kick or poll.
   */
  constructor(
    private readonly runOnce: (control: RunControl) => Promise<RunJobsReport>,
    pollMs = 2000,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    if (pollMs > 0) {
      this.poll = setInterval(() => this.kick(), pollMs);
      this.poll.unref();
    }
  }

  kick(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.start({}).catch((e: unknown) => this.onError(e));
    }, 0);
    this.timer.unref();
  }

  /** Runs until no job is due, including work queued while it runs. */
  async flush(options: FlushOptions = {}): Promise<RunJobsReport> {
    const total = emptyReport();
    for (;;) {
      const { report, paused } = await this.start(options);
      total.completed += report.completed;
      total.retried += report.retried;
      total.failed += report.failed;
      total.errors.push(...report.errors);
      if (this.stopped) return total;
      if (report.completed + report.retried + report.failed === 0 && !paused) return total;
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
    this.pause?.abort(PAUSED);
    await this.running?.catch(() => undefined);
    try {
      return await fn();
    } finally {
      release();
      if (this.again) this.kick();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.poll) clearInterval(this.poll);
    this.pause?.abort(PAUSED);
    await this.running?.catch(() => undefined);
  }

  private async start(options: FlushOptions): Promise<Run> {
    await this.gate;
    if (this.running) {
      this.again = true;
      return this.running.then(() => this.start(options));
    }
    const pause = new AbortController();
    this.pause = pause;
    const signal = options.signal ? AbortSignal.any([pause.signal, options.signal]) : pause.signal;
    this.running = this.runOnce({ signal, onProgress: options.onProgress })
      .then((report) => ({ report, paused: false }))
      .catch((error: unknown) => {
        // Paused by the worker itself: not an error; the stopped job is queued again, due now.
        if (error === PAUSED) {
          this.again = !this.stopped;
          return { report: emptyReport(), paused: true };
        }
        throw error;
      })
      .finally(() => {
        this.running = null;
        if (this.pause === pause) this.pause = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.kick();
        }
      });
    return this.running;
  }
}
