import type { ClaimOptions, Job, JobStatus, NewJob } from "../storage-port.js";

/** Done jobs stay listed this long, as on the other backends, so the queue does not grow with every write. */
const DONE_RETENTION_MS = 24 * 3600 * 1000;

type MutableJob = { -readonly [K in keyof Job]: Job[K] };

/**
 * The in-memory store's durable job queue, written out plainly: leases, attempts, retries, dedupe keys
 * (one queued per user and key; a failing job merges into a queued twin) and a day's retention of done jobs.
 */
export class MemoryJobs {
  private readonly byId = new Map<string, MutableJob>();

  /** `now`: the store's clock, which never gives the same instant twice. */
  constructor(private readonly now: () => string) {}

  /** Queues a job of the user (one with the id already queued, or deduplicated, adds nothing). */
  enqueue(userId: string, job: NewJob, now: string): void {
    if (this.byId.has(job.id)) return;
    const restore = job.restore;
    if (
      job.dedupeKey &&
      [...this.byId.values()].some(
        (j) => j.userId === userId && j.dedupeKey === job.dedupeKey && j.status === "queued",
      )
    )
      return;
    this.byId.set(job.id, {
      id: job.id,
      userId,
      type: job.type,
      payload: structuredClone(job.payload),
      ...(job.dedupeKey ? { dedupeKey: job.dedupeKey } : {}),
      runAt: job.runAt,
      status: restore?.status ?? "queued",
      attempts: restore?.attempts ?? 0,
      lastError: restore?.lastError ?? null,
      leaseUntil: null,
      createdAt: restore?.createdAt ?? now,
      updatedAt: restore?.updatedAt ?? now,
    });
  }

  /** Leases the due jobs, oldest first: queued and due, or running with an expired lease. */
  claim(options: ClaimOptions): Job[] {
    const now = Date.parse(options.now);
    const leased = (j: MutableJob) => j.leaseUntil !== null && Date.parse(j.leaseUntil) > now;
    const busy = new Set(
      [...this.byId.values()]
        .filter((j) => j.status === "running" && leased(j) && j.dedupeKey)
        .map((j) => JSON.stringify([j.userId, j.dedupeKey])),
    );
    const due = [...this.byId.values()]
      .filter((j) => !options.types || options.types.includes(j.type))
      .filter((j) =>
        j.status === "queued"
          ? Date.parse(j.runAt) <= now && !(j.dedupeKey && busy.has(JSON.stringify([j.userId, j.dedupeKey])))
          : j.status === "running" && !leased(j),
      )
      .sort((a, b) => a.runAt.localeCompare(b.runAt) || a.createdAt.localeCompare(b.createdAt))
      .slice(0, Math.max(0, options.limit));
    const leaseUntil = new Date(now + options.leaseMs).toISOString();
    for (const j of due) {
      Object.assign(j, { status: "running", attempts: j.attempts + 1, leaseUntil, updatedAt: options.now });
    }
    return due.map((j) => structuredClone(j));
  }

  /** The job while its caller still holds it: running at `attempt` (any state when no attempt is given). */
  private held(jobId: string, attempt?: number): MutableJob | null {
    const job = this.byId.get(jobId) ?? null;
    if (job && attempt !== undefined && (job.status !== "running" || job.attempts !== attempt)) return null;
    return job;
  }

  renew(jobId: string, attempt: number, leaseUntil: string): boolean {
    const job = this.held(jobId, attempt);
    if (!job) return false;
    Object.assign(job, { leaseUntil, updatedAt: this.now() });
    return true;
  }

  complete(jobId: string, attempt?: number): void {
    const job = this.held(jobId, attempt);
    if (!job) return;
    const now = this.now();
    Object.assign(job, { status: "done", leaseUntil: null, lastError: null, updatedAt: now });
    const cutoff = Date.parse(now) - DONE_RETENTION_MS;
    for (const [id, j] of this.byId) {
      if (j.status === "done" && Date.parse(j.updatedAt) < cutoff) this.byId.delete(id);
    }
  }

  fail(jobId: string, error: string, retryAt: string | null, attempt?: number): void {
    const job = this.held(jobId, attempt);
    if (!job) return;
    const now = this.now();
    const twin =
      retryAt !== null &&
      job.dedupeKey !== undefined &&
      [...this.byId.values()].some(
        (j) => j !== job && j.userId === job.userId && j.dedupeKey === job.dedupeKey && j.status === "queued",
      );
    Object.assign(
      job,
      // A queued job with the same dedupe key will do the same (idempotent) work.
      twin
        ? { status: "done", lastError: `${error} (merged into the queued job with the same dedupe key)` }
        : { status: retryAt ? "queued" : "failed", lastError: error, runAt: retryAt ?? job.runAt },
      { leaseUntil: null, updatedAt: now },
    );
  }

  /** The user's jobs, oldest first, in `status` when given. */
  list(userId: string, status?: JobStatus): Job[] {
    return [...this.byId.values()]
      .filter((j) => j.userId === userId && (status === undefined || j.status === status))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map((j) => structuredClone(j));
  }

  /** Removes the user's jobs; how many there were. */
  forget(userId: string): number {
    let removed = 0;
    for (const [id, j] of this.byId) {
      if (j.userId !== userId) continue;
      this.byId.delete(id);
      removed++;
    }
    return removed;
  }

  /** The users with a job in any state. */
  users(): Set<string> {
    return new Set([...this.byId.values()].map((j) => j.userId));
  }

  /** Jobs by status, of the user or of everyone. */
  counts(userId?: string): Record<string, number> {
    const out: Record<string, number> = {};
    for (const j of this.byId.values())
      if (!userId || j.userId === userId) out[j.status] = (out[j.status] ?? 0) + 1;
    return out;
  }
}
