import { randomUUID } from "node:crypto";
import type { ClaimOptions, Job, JobStatus, NewJob } from "../storage-port.js";
import { anyOf, match, type QFilter, scopeCondition } from "./filter.js";
import { ms, type Payload } from "./payload.js";
import { pointIds } from "./point-id.js";
import type { Operation, Point, Points } from "./points.js";

const DONE_RETENTION_MS = 24 * 3600 * 1000;

export function jobPayload(userId: string, job: NewJob, now: string): Payload {
  return {
    user_id: userId,
    job_id: job.id,
    type: job.type,
    payload: JSON.stringify(job.payload),
    dedupe_key: job.dedupeKey ?? null,
    status: job.restore?.status ?? "queued",
    attempts: job.restore?.attempts ?? 0,
    last_error: job.restore?.lastError ?? null,
    run_at: job.runAt,
    run_ms: ms(job.runAt),
    lease_until: null,
    lease_ms: null,
    created_at: job.restore?.createdAt ?? now,
    updated_at: job.restore?.updatedAt ?? now,
    updated_ms: ms(job.restore?.updatedAt ?? now),
    rev: 0,
    claim: null,
  };
}

function toJob(p: Payload): Job {
  return {
    id: p.job_id as string,
    userId: p.user_id as string,
    type: p.type as string,
    payload: JSON.parse(p.payload as string) as Record<string, unknown>,
    ...(p.dedupe_key ? { dedupeKey: p.dedupe_key as string } : {}),
    status: p.status as JobStatus,
    attempts: p.attempts as number,
    lastError: (p.last_error ?? null) as string | null,
    runAt: p.run_at as string,
    leaseUntil: (p.lease_until ?? null) as string | null,
    createdAt: p.created_at as string,
    updatedAt: p.updated_at as string,
  };
}

const byRunTime = (a: Payload, b: Payload) =>
  String(a.run_at).localeCompare(String(b.run_at)) ||
  String(a.created_at).localeCompare(String(b.created_at));

/**
 * The durable job queue on Qdrant. There are no transactions, so every state change is a conditional
 * `set_payload` whose filter selects the job only at the revision it was read at (`rev`), then a re-read
 * tells which changes won: two workers can never both lease one job. This works on every server version
 * (a filter-selected payload update, not the 1.16+ `update_filter`).
 */
export class QdrantQueue {
  constructor(
    private readonly points: Points,
    private readonly collection: string,
  ) {}

  async claim(options: ClaimOptions): Promise<Job[]> {
    const now = ms(options.now) as number;
    const due: QFilter = {
      must: options.types ? [anyOf("type", options.types)] : [],
      should: [
        { must: [match("status", "queued"), { key: "run_ms", range: { lte: now } }] },
        { must: [match("status", "running"), { key: "lease_ms", range: { lte: now } }] },
      ],
    };
    const busy = await this.runningKeys(now);
    const candidates = (await this.points.scroll(this.collection, due))
      .map((p) => p.payload)
      .filter((p) => p.status !== "queued" || !busy.has(dedupeSlot(p)))
      .sort(byRunTime);
    const chosen = candidates.slice(0, options.limit);
    if (chosen.length === 0) return [];
    const token = randomUUID();
    const leaseUntil = new Date(now + options.leaseMs).toISOString();
    const ops = chosen.map((p) =>
      this.update(p, {
        status: "running",
        attempts: (p.attempts as number) + 1,
        lease_until: leaseUntil,
        lease_ms: ms(leaseUntil),
        updated_at: options.now,
        updated_ms: now,
        claim: token,
      }),
    );
    await this.points.apply(this.collection, ops);
    const ids = chosen.map((p) => pointIds.job(p.job_id as string));
    const after = await this.points.byIds(this.collection, ids, {});
    return after
      .map((p) => p.payload)
      .filter((p) => p.claim === token && p.status === "running" && p.lease_until === leaseUntil)
      .sort(byRunTime)
      .map(toJob);
  }

  /** Extends a lease the caller still holds (running at `attempt`); the re-read tells whether it won. */
  async renew(jobId: string, attempt: number, leaseUntil: string, now: string): Promise<boolean> {
    const job = await this.read(jobId, attempt);
    if (!job) return false;
    await this.points.apply(this.collection, [
      this.update(job, { lease_until: leaseUntil, lease_ms: ms(leaseUntil), ...stamp(now) }),
    ]);
    const after = await this.read(jobId, attempt);
    return after?.lease_until === leaseUntil;
  }

  async complete(jobId: string, now: string, attempt?: number): Promise<void> {
    const job = await this.read(jobId, attempt);
    if (!job) return;
    await this.points.apply(this.collection, [
      this.update(job, { status: "done", last_error: null, ...released(now) }),
      // Done jobs stay visible for a day, then go: the queue does not grow with every write.
      {
        delete: {
          filter: {
            must: [
              match("status", "done"),
              { key: "updated_ms", range: { lt: (ms(now) as number) - DONE_RETENTION_MS } },
            ],
          },
        },
      },
    ]);
  }

  async fail(
    jobId: string,
    error: string,
    retryAt: string | null,
    now: string,
    attempt?: number,
  ): Promise<void> {
    const job = await this.read(jobId, attempt);
    if (!job) return;
    // A job with the same dedupe key already queued will do the same (idempotent) work.
    const changes: Payload =
      retryAt && (await this.queuedTwin(job))
        ? { status: "done", last_error: `${error} (merged into the queued job with the same dedupe key)` }
        : {
            status: retryAt ? "queued" : "failed",
            last_error: error,
            run_at: retryAt ?? job.run_at,
            run_ms: ms((retryAt ?? job.run_at) as string),
          };
    await this.points.apply(this.collection, [this.update(job, { ...changes, ...released(now) })]);
  }

  async list(userId: string, status?: JobStatus): Promise<Job[]> {
    const must = [scopeCondition({ userId }), ...(status ? [match("status", status)] : [])];
    const points = await this.points.scroll(this.collection, { must });
    return points
      .map((p) => p.payload)
      .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)))
      .map(toJob);
  }

  /** The job's payload; with `attempt`, only while it runs at that attempt (the caller still holds it). */
  private async read(jobId: string, attempt?: number): Promise<Payload | null> {
    const [point] = (await this.points.byIds(this.collection, [pointIds.job(jobId)], {})) as (
      | Point
      | undefined
    )[];
    const job = point?.payload ?? null;
    if (job && attempt !== undefined && (job.status !== "running" || job.attempts !== attempt)) return null;
    return job;
  }

  private async queuedTwin(job: Payload): Promise<boolean> {
    if (!job.dedupe_key) return false;
    const twins = await this.points.count(this.collection, {
      must: [
        scopeCondition({ userId: job.user_id as string }),
        match("dedupe_key", job.dedupe_key as string),
        match("status", "queued"),
      ],
      must_not: [{ has_id: [pointIds.job(job.job_id as string)] }],
    });
    return twins > 0;
  }

  /**
   * Users' dedupe keys with a job running under a live lease: a queued job with the same key waits, as
   * two tier runs of one user at once would each move the same pages.
   */
  private async runningKeys(now: number): Promise<Set<string>> {
    const running = await this.points.scroll(
      this.collection,
      { must: [match("status", "running"), { key: "lease_ms", range: { gt: now } }] },
      { include: ["user_id", "dedupe_key"] },
    );
    return new Set(running.map((p) => dedupeSlot(p.payload)).filter((slot) => slot !== ""));
  }

  /** A payload change applied only if the job is still at the revision it was read at. */
  private update(job: Payload, changes: Payload): Operation {
    const rev = job.rev as number;
    return {
      set_payload: {
        payload: { ...changes, rev: rev + 1 },
        filter: { must: [{ has_id: [pointIds.job(job.job_id as string)] }, match("rev", rev)] },
      },
    };
  }
}

/** The job's user and dedupe key as one string; empty for a job without a dedupe key. */
function dedupeSlot(p: Payload): string {
  return p.dedupe_key ? JSON.stringify([p.user_id, p.dedupe_key]) : "";
}

function stamp(now: string): Payload {
  return { updated_at: now, updated_ms: ms(now) };
}

/** A job no longer leased, as of `now`. */
function released(now: string): Payload {
  return { lease_until: null, lease_ms: null, ...stamp(now) };
}
