import { EngramError } from "../errors/index.js";
import type { Clock } from "../model/index.js";
import type { Job, StoragePort } from "../storage/index.js";

export type JobHandler = (job: Job) => Promise<void>;

export interface RunJobsOptions {
  readonly storage: StoragePort;
  readonly clock: Clock;
  readonly handlers: Readonly<Record<string, JobHandler>>;
  /** Attempts before a job is marked failed (it stays visible with its error). Default 5. */
  readonly maxAttempts?: number;
  readonly leaseMs?: number;
}

export interface RunJobsReport {
  completed: number;
  retried: number;
  failed: number;
}

/** Exponential back-off with full jitter: 1 s, 2 s, 4 s ... capped at 5 minutes. */
export function backoffMs(attempt: number): number {
  const cap = Math.min(300_000, 1000 * 2 ** (attempt - 1));
  return Math.round(cap / 2 + (Math.random() * cap) / 2);
}

/** Runs every due job until none is due. Jobs are idempotent, so a job retaken after a crash is safe. */
export async function runDueJobs(options: RunJobsOptions): Promise<RunJobsReport> {
  const report: RunJobsReport = { completed: 0, retried: 0, failed: 0 };
  const maxAttempts = options.maxAttempts ?? 5;
  for (;;) {
    const now = options.clock();
    const jobs = await options.storage.claimJobs({
      now: now.toISOString(),
      limit: 16,
      leaseMs: options.leaseMs ?? 60_000,
      types: Object.keys(options.handlers),
    });
    if (jobs.length === 0) return report;
    for (const job of jobs) {
      const handler = options.handlers[job.type] as JobHandler;
      try {
        await handler(job);
        await options.storage.completeJob(job.id);
        report.completed++;
      } catch (cause) {
        const message =
          EngramError.isInstance(cause) || cause instanceof Error ? cause.message : String(cause);
        const retry = job.attempts < maxAttempts;
        const retryAt = retry ? new Date(now.getTime() + backoffMs(job.attempts)).toISOString() : null;
        await options.storage.failJob(job.id, message, retryAt);
        if (retry) report.retried++;
        else report.failed++;
      }
    }
  }
}
