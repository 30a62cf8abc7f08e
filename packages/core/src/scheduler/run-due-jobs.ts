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

/**
 * Keeps the leases of claimed jobs alive while this worker holds them (a third of the lease apart), so
 * a job that runs longer than its lease is not taken over by another process's worker.
 */
function leaseKeeper(options: RunJobsOptions, jobs: readonly Job[], leaseMs: number) {
  const held = new Map(jobs.map((job) => [job.id, job]));
  const lost = new Set<string>();
  const timer = setInterval(() => {
    const leaseUntil = new Date(options.clock().getTime() + leaseMs).toISOString();
    for (const job of held.values()) {
      options.storage.renewJob(job.id, job.attempts, leaseUntil).then(
        (kept) => {
          if (!kept) lost.add(job.id);
        },
        // A failed renewal is tried again on the next beat; the lease still has two thirds to run.
        () => {},
      );
    }
  }, leaseMs / 3);
  timer.unref();
  return {
    lost: (job: Job) => lost.has(job.id),
    release: (job: Job) => held.delete(job.id),
    stop: () => clearInterval(timer),
  };
}

/** Runs every due job until none is due. Jobs are idempotent, so a job retaken after a crash is safe. */
export async function runDueJobs(options: RunJobsOptions): Promise<RunJobsReport> {
  const report: RunJobsReport = { completed: 0, retried: 0, failed: 0 };
  const maxAttempts = options.maxAttempts ?? 5;
  const leaseMs = options.leaseMs ?? 60_000;
  for (;;) {
    const now = options.clock();
    const jobs = await options.storage.claimJobs({
      now: now.toISOString(),
      limit: 16,
      leaseMs,
      types: Object.keys(options.handlers),
    });
    if (jobs.length === 0) return report;
    const leases = leaseKeeper(options, jobs, leaseMs);
    try {
      for (const job of jobs) {
        // Another worker took this job over (this process stalled past its lease): it is theirs now.
        if (leases.lost(job)) continue;
        await runJob(options, job, now, maxAttempts, report);
        leases.release(job);
      }
    } finally {
      leases.stop();
    }
  }
}

async function runJob(
  options: RunJobsOptions,
  job: Job,
  now: Date,
  maxAttempts: number,
  report: RunJobsReport,
): Promise<void> {
  const handler = options.handlers[job.type] as JobHandler;
  try {
    await handler(job);
    await options.storage.completeJob(job.id, job.attempts);
    report.completed++;
  } catch (cause) {
    const message = EngramError.isInstance(cause) || cause instanceof Error ? cause.message : String(cause);
    const retry = job.attempts < maxAttempts;
    const retryAt = retry ? new Date(now.getTime() + backoffMs(job.attempts)).toISOString() : null;
    await options.storage.failJob(job.id, message, retryAt, job.attempts);
    if (retry) report.retried++;
    else report.failed++;
  }
}
