import type { Engram, Job } from "@engram/core";
import { oneLine, truncate } from "./cli-output.js";

/** A job that failed and is retried, or failed for good: what a person should see. */
export interface FailingJob {
  readonly id: string;
  readonly type: string;
  readonly status: Job["status"];
  readonly attempts: number;
  readonly lastError: string;
  /** When it runs again; null once it has failed for good. */
  readonly retryAt: string | null;
}

export function failingJobs(jobs: readonly Job[]): FailingJob[] {
  return jobs.flatMap((job) =>
    job.lastError !== null && (job.status === "failed" || job.status === "queued")
      ? [
          {
            id: job.id,
            type: job.type,
            status: job.status,
            attempts: job.attempts,
            lastError: job.lastError,
            retryAt: job.status === "failed" ? null : job.runAt,
          },
        ]
      : [],
  );
}

/**
 * One warning line when the user has failing background jobs, else null: a command that reads or writes a
 * user's memory says so, so a store whose tier work keeps failing is not discovered months later.
 */
export async function failingJobsWarning(engram: Engram, userId: string): Promise<string | null> {
  const failing = failingJobs(await engram.jobs({ userId }));
  if (failing.length === 0) return null;
  const latest = failing.at(-1) as FailingJob;
  const given = failing.filter((j) => j.status === "failed").length;
  const state =
    given === failing.length ? "failed" : given === 0 ? "being retried" : `failing (${given} given up)`;
  return (
    `warning: ${failing.length} background job${failing.length === 1 ? "" : "s"} of user ${userId} ${state}; ` +
    `latest ${latest.type}: ${truncate(oneLine(latest.lastError), 120)} (engram stats --user ${userId} lists them)`
  );
}
