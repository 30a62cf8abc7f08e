import { setImmediate as nextTurn } from "node:timers/promises";
import {
  type Clock,
  type EventSink,
  errorMessage,
  inSpan,
  type JobRef,
  reportSlow,
  SPAN_ERROR,
  type SpanLike,
  type TracerLike,
} from "../model/index.js";
import type { Job, StoragePort } from "../storage/index.js";

/** How far a running job has come: `done` of `total` units of its current `stage`. */
export interface JobProgress {
  readonly jobId: string;
  readonly type: string;
  readonly userId: string;
  readonly stage: string;
  readonly done: number;
  readonly total: number;
}

/**
 * What a long job calls between its bounded steps (each one atomic write). `checkpoint` lets the event
 * loop run (so lease renewals and signals get through), then throws if the run was stopped or the job's
 * lease was lost to another worker: the job ends there with its finished steps stored, and the rest is
 * done when the job runs again.
 */
export interface JobControl {
  checkpoint(): Promise<void>;
  progress(stage: string, done: number, total: number): void;
}

/** A control for work run outside the queue (tests, direct calls): it never stops anything. */
export const UNCONTROLLED: JobControl = { checkpoint: async () => {}, progress: () => {} };

export type JobHandler = (job: Job, control: JobControl) => Promise<void>;

export interface RunJobsOptions {
  readonly storage: StoragePort;
  readonly clock: Clock;
  readonly handlers: Readonly<Record<string, JobHandler>>;
  /** Attempts before a job is marked failed (it stays visible with its error). Default 5. */
  readonly maxAttempts?: number;
  readonly leaseMs?: number;
  /**
   * Stops the run at the running job's next checkpoint: that job and the claimed ones not yet started go
   * back to the queue, due at once, and the run rejects with the signal's reason.
   */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: JobProgress) => void;
  /** Hears of each retried and failed job, and (with `slowMs`) of each job that ran longer. */
  readonly onEvent?: EventSink;
  readonly slowMs?: number;
  /** An `engram.job` span per job run, with its type, attempt and outcome. */
  readonly tracer?: TracerLike;
}

/** Thrown by a checkpoint: the job stops where it is (not a failure of the job). */
class JobStopped extends Error {
  constructor(readonly why: "signal" | "lease") {
    super(why === "signal" ? "stopped" : "lease lost");
  }
}

/** A job that failed in a run: retried at `retryAt`, or given up (null) and kept as failed. */
export interface JobFailure {
  readonly job: JobRef;
  readonly error: string;
  readonly retryAt: string | null;
}

export interface RunJobsReport {
  completed: number;
  retried: number;
  failed: number;
  /** Why each retried or failed job failed, in the order they ran. */
  errors: JobFailure[];
}

/** A report of nothing run. */
export const emptyReport = (): RunJobsReport => ({ completed: 0, retried: 0, failed: 0, errors: [] });

/** Exponential back-off with full jitter: 1 s, 2 s, 4 s ... capped at 5 minutes. */
export function backoffMs(attempt: number): number {
  const cap = Math.min(300_000, 1000 * 2 ** (attempt - 1));
  return Math.round(cap / 2 + (Math.random() * cap) / 2);
}

/** The longest wait a server asked for (a model's 429 with Retry-After) in an error's cause chain, capped at an hour. */
export function retryAfterOf(error: unknown): number {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const ms = (current as { details?: { retryAfterMs?: unknown } }).details?.retryAfterMs;
    if (typeof ms === "number" && Number.isFinite(ms)) return Math.min(3_600_000, Math.max(0, ms));
    current = (current as { cause?: unknown }).cause;
  }
  return 0;
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
  const report = emptyReport();
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
      for (const [i, job] of jobs.entries()) {
        // Another worker took this job over (this process stalled past its lease): it is theirs now.
        if (leases.lost(job)) continue;
        if (options.signal?.aborted) {
          await requeue(options, jobs.slice(i), "not started: the run was stopped");
          throw options.signal.reason;
        }
        const stopped = await inSpan(options.tracer, "engram.job", jobAttributes(job), (span) =>
          runJob(options, job, now, maxAttempts, report, control(options, job, leases), span),
        );
        leases.release(job);
        if (stopped) {
          await requeue(options, jobs.slice(i + 1), "not started: the run was stopped");
          throw options.signal?.reason ?? new Error("job run stopped");
        }
      }
    } finally {
      leases.stop();
    }
  }
}

function control(options: RunJobsOptions, job: Job, leases: { lost(job: Job): boolean }): JobControl {
  return {
    async checkpoint() {
      await nextTurn();
      if (options.signal?.aborted) throw new JobStopped("signal");
      if (leases.lost(job)) throw new JobStopped("lease");
    },
    progress(stage, done, total) {
      options.onProgress?.({ jobId: job.id, type: job.type, userId: job.userId, stage, done, total });
    },
  };
}

/** Puts claimed jobs back in the queue, due now, without waiting for their leases to run out. */
async function requeue(options: RunJobsOptions, jobs: readonly Job[], why: string): Promise<void> {
  const now = options.clock().toISOString();
  for (const job of jobs) await options.storage.failJob(job.id, why, now, job.attempts);
}

/** A job's span attributes at its start; the outcome is added when it ends. */
const jobAttributes = (job: Job) => ({
  "engram.job.type": job.type,
  "engram.job.attempt": job.attempts,
  "engram.user_id": job.userId,
});

/** Runs one job; true when a checkpoint stopped it because the run was stopped. */
async function runJob(
  options: RunJobsOptions,
  job: Job,
  now: Date,
  maxAttempts: number,
  report: RunJobsReport,
  jobControl: JobControl,
  span: SpanLike | null,
): Promise<boolean> {
  const handler = options.handlers[job.type] as JobHandler;
  const outcome = (value: string) => span?.setAttribute("engram.job.outcome", value);
  const ref: JobRef = { id: job.id, type: job.type, userId: job.userId, attempt: job.attempts };
  const started = performance.now();
  try {
    await handler(job, jobControl);
    await options.storage.completeJob(job.id, job.attempts);
    report.completed++;
    outcome("completed");
    reportSlow(options, "job", performance.now() - started, job.userId);
    return false;
  } catch (cause) {
    if (cause instanceof JobStopped) {
      // Its finished steps are stored; it resumes from them. A lost lease means another worker runs it.
      outcome(cause.why === "lease" ? "taken over" : "stopped");
      if (cause.why === "lease") return false;
      await requeue(options, [job], "interrupted: the finished steps are stored, the rest runs next time");
      return true;
    }
    const message = errorMessage(cause);
    const retry = job.attempts < maxAttempts;
    const delay = Math.max(backoffMs(job.attempts), retryAfterOf(cause));
    const retryAt = retry ? new Date(now.getTime() + delay).toISOString() : null;
    await options.storage.failJob(job.id, message, retryAt, job.attempts);
    if (retry) report.retried++;
    else report.failed++;
    report.errors.push({ job: ref, error: message, retryAt });
    outcome(retry ? "retried" : "failed");
    span?.setStatus({ code: SPAN_ERROR, message });
    const at = options.clock().toISOString();
    options.onEvent?.(
      retryAt === null
        ? { type: "job.failed", at, job: ref, error: message }
        : { type: "job.retry", at, job: ref, error: message, retryAt },
    );
    return false;
  }
}
