import type { Job, NewJob } from "@engram/core/storage";
import { expect } from "vitest";
import { iso } from "../records.js";
import { conformanceSpec } from "../spec.js";

const U = { userId: "u1" };
const LEASE = 60_000;

function job(id: string, fields: Partial<NewJob> = {}): NewJob {
  return { id, type: "embed", payload: { ids: [`m-${id}`] }, runAt: iso(0), ...fields };
}
const ids = (jobs: readonly Job[]) => jobs.map((j) => j.id).sort();

export const jobs = conformanceSpec("jobs", ({ test }) => {
  test("a job given its state (an import) is stored failed or queued, with attempts, error and times", async (port) => {
    const restore = {
      attempts: 4,
      lastError: "model timed out",
      createdAt: "2025-01-02T03:04:05.000Z",
      updatedAt: "2025-02-03T04:05:06.000Z",
    };
    await port.write(U, {
      jobs: [
        job("f1", { restore: { status: "failed", ...restore } }),
        job("q1", { restore: { status: "queued", ...restore } }),
      ],
    });
    const byId = new Map((await port.jobs(U)).map((j) => [j.id, j]));
    expect(byId.get("f1")).toMatchObject({ status: "failed", ...restore, leaseUntil: null });
    expect(byId.get("q1")).toMatchObject({ status: "queued", ...restore });
    expect(ids(await port.jobs(U, "failed"))).toEqual(["f1"]);
  });

  test("a queued job is listed with its payload, owner and no attempts", async (port) => {
    await port.write(U, { jobs: [job("j1", { payload: { ids: ["a", "b"], nested: { n: 1 } } })] });
    expect(await port.jobs(U)).toEqual([
      expect.objectContaining({
        id: "j1",
        userId: "u1",
        type: "embed",
        payload: { ids: ["a", "b"], nested: { n: 1 } },
        runAt: iso(0),
        status: "queued",
        attempts: 0,
        lastError: null,
        leaseUntil: null,
      }),
    ]);
  });

  test("claims only due jobs and leases them", async (port) => {
    await port.write(U, { jobs: [job("due", { runAt: iso(0) }), job("later", { runAt: iso(10) })] });
    const claimed = await port.claimJobs({ now: iso(5), limit: 10, leaseMs: LEASE });
    expect(claimed).toEqual([
      expect.objectContaining({
        id: "due",
        userId: "u1",
        status: "running",
        attempts: 1,
        leaseUntil: iso(6),
      }),
    ]);
    expect(ids(await port.jobs(U, "running"))).toEqual(["due"]);
    expect(ids(await port.jobs(U, "queued"))).toEqual(["later"]);
  });

  test("a leased job is not claimed again until its lease expires, then it is retaken", async (port) => {
    await port.write(U, { jobs: [job("j1")] });
    await port.claimJobs({ now: iso(0), limit: 10, leaseMs: LEASE });
    expect(await port.claimJobs({ now: iso(0.5), limit: 10, leaseMs: LEASE })).toEqual([]);
    const retaken = await port.claimJobs({ now: iso(2), limit: 10, leaseMs: LEASE });
    expect(retaken).toEqual([expect.objectContaining({ id: "j1", attempts: 2, leaseUntil: iso(3) })]);
  });

  test("claims the earliest due jobs first, up to the limit", async (port) => {
    await port.write(U, { jobs: [job("third", { runAt: iso(3) }), job("first", { runAt: iso(1) })] });
    await port.write(U, { jobs: [job("second", { runAt: iso(2) })] });
    expect(ids(await port.claimJobs({ now: iso(10), limit: 2, leaseMs: LEASE }))).toEqual([
      "first",
      "second",
    ]);
    expect(ids(await port.claimJobs({ now: iso(10), limit: 2, leaseMs: LEASE }))).toEqual(["third"]);
  });

  test("claims only the requested job types", async (port) => {
    await port.write(U, { jobs: [job("e"), job("s", { type: "summarize" })] });
    expect(
      ids(await port.claimJobs({ now: iso(1), limit: 10, leaseMs: LEASE, types: ["summarize"] })),
    ).toEqual(["s"]);
    expect(ids(await port.jobs(U, "queued"))).toEqual(["e"]);
  });

  test("claims due jobs of every user, each with its owner", async (port) => {
    await port.write(U, { jobs: [job("mine")] });
    await port.write({ userId: "u2" }, { jobs: [job("theirs")] });
    const claimed = await port.claimJobs({ now: iso(1), limit: 10, leaseMs: LEASE });
    expect(claimed.map((j) => `${j.userId}:${j.id}`).sort()).toEqual(["u1:mine", "u2:theirs"]);
  });

  test("a completed job is done and never claimed again", async (port) => {
    await port.write(U, { jobs: [job("j1")] });
    await port.claimJobs({ now: iso(0), limit: 10, leaseMs: LEASE });
    await port.completeJob("j1");
    expect(await port.jobs(U, "done")).toEqual([
      expect.objectContaining({ id: "j1", status: "done", leaseUntil: null, lastError: null }),
    ]);
    expect(await port.claimJobs({ now: iso(1_000), limit: 10, leaseMs: LEASE })).toEqual([]);
  });

  test("a failed job with a retry time is queued again with its error and is due at that time", async (port) => {
    await port.write(U, { jobs: [job("j1")] });
    await port.claimJobs({ now: iso(0), limit: 10, leaseMs: LEASE });
    await port.failJob("j1", "model timed out", iso(10));
    expect(await port.jobs(U)).toEqual([
      expect.objectContaining({
        id: "j1",
        status: "queued",
        lastError: "model timed out",
        runAt: iso(10),
        leaseUntil: null,
      }),
    ]);
    expect(await port.claimJobs({ now: iso(9), limit: 10, leaseMs: LEASE })).toEqual([]);
    const retried = await port.claimJobs({ now: iso(10), limit: 10, leaseMs: LEASE });
    expect(retried).toEqual([expect.objectContaining({ id: "j1", attempts: 2, status: "running" })]);
  });

  test("a failed job without a retry time fails for good and stays visible with its error", async (port) => {
    await port.write(U, { jobs: [job("j1")] });
    await port.claimJobs({ now: iso(0), limit: 10, leaseMs: LEASE });
    await port.failJob("j1", "bad payload", null);
    expect(await port.jobs(U, "failed")).toEqual([
      expect.objectContaining({ id: "j1", status: "failed", lastError: "bad payload", attempts: 1 }),
    ]);
    expect(await port.claimJobs({ now: iso(1_000), limit: 10, leaseMs: LEASE })).toEqual([]);
  });

  test("jobs with the same dedupe key collapse into the first still queued", async (port) => {
    await port.write(U, {
      jobs: [job("j1", { dedupeKey: "embed:u1" }), job("j2", { dedupeKey: "embed:u1" })],
    });
    await port.write(U, { jobs: [job("j3", { dedupeKey: "embed:u1" }), job("free")] });
    expect(ids(await port.jobs(U))).toEqual(["free", "j1"]);
    expect((await port.jobs(U)).find((j) => j.id === "j1")?.dedupeKey).toBe("embed:u1");
  });

  test("the dedupe key is per user", async (port) => {
    await port.write(U, { jobs: [job("j1", { dedupeKey: "k" })] });
    await port.write({ userId: "u2" }, { jobs: [job("j2", { dedupeKey: "k" })] });
    expect(ids(await port.jobs(U))).toEqual(["j1"]);
    expect(ids(await port.jobs({ userId: "u2" }))).toEqual(["j2"]);
  });

  test("once the first job is running, a new job with the same key is queued", async (port) => {
    await port.write(U, { jobs: [job("j1", { dedupeKey: "k" })] });
    await port.claimJobs({ now: iso(0), limit: 10, leaseMs: LEASE });
    await port.write(U, { jobs: [job("j2", { dedupeKey: "k" })] });
    expect(ids(await port.jobs(U, "running"))).toEqual(["j1"]);
    expect(ids(await port.jobs(U, "queued"))).toEqual(["j2"]);
  });

  test("retrying a running job whose key is queued again leaves one queued job for the key", async (port) => {
    await port.write(U, { jobs: [job("j1", { dedupeKey: "k" })] });
    await port.claimJobs({ now: iso(0), limit: 10, leaseMs: LEASE });
    await port.write(U, { jobs: [job("j2", { dedupeKey: "k" })] });
    await port.failJob("j1", "transient", iso(5));
    expect(await port.jobs(U, "running")).toEqual([]);
    expect((await port.jobs(U, "queued")).filter((j) => j.dedupeKey === "k")).toHaveLength(1);
  });

  test("a queued job waits while its key runs for the same user under a live lease, then is claimed", async (port) => {
    await port.write(U, { jobs: [job("j1", { dedupeKey: "tiers" })] });
    await port.claimJobs({ now: iso(0), limit: 10, leaseMs: LEASE });
    await port.write(U, { jobs: [job("j2", { dedupeKey: "tiers" }), job("free")] });
    await port.write({ userId: "u2" }, { jobs: [job("other", { dedupeKey: "tiers" })] });
    // Another user's job with the same key, and a job without a key, are not held back.
    expect(ids(await port.claimJobs({ now: iso(0.5), limit: 10, leaseMs: LEASE }))).toEqual([
      "free",
      "other",
    ]);
    await port.completeJob("j1");
    expect(ids(await port.claimJobs({ now: iso(0.5), limit: 10, leaseMs: LEASE }))).toEqual(["j2"]);
  });

  test("a renewed lease keeps a long job from being retaken", async (port) => {
    await port.write(U, { jobs: [job("j1")] });
    const [claimed] = await port.claimJobs({ now: iso(0), limit: 10, leaseMs: LEASE });
    expect(await port.renewJob("j1", claimed?.attempts ?? 0, iso(5))).toBe(true);
    expect(await port.claimJobs({ now: iso(3), limit: 10, leaseMs: LEASE })).toEqual([]);
    expect(await port.jobs(U, "running")).toEqual([
      expect.objectContaining({ id: "j1", leaseUntil: iso(5) }),
    ]);
  });

  test("a worker whose job was taken over can neither renew, complete nor fail it", async (port) => {
    await port.write(U, { jobs: [job("j1")] });
    const [first] = await port.claimJobs({ now: iso(0), limit: 10, leaseMs: LEASE });
    const [second] = await port.claimJobs({ now: iso(2), limit: 10, leaseMs: LEASE });
    expect([first?.attempts, second?.attempts]).toEqual([1, 2]);
    expect(await port.renewJob("j1", 1, iso(10))).toBe(false);
    await port.completeJob("j1", 1);
    await port.failJob("j1", "stale worker", null, 1);
    expect(await port.jobs(U)).toEqual([
      expect.objectContaining({
        id: "j1",
        status: "running",
        attempts: 2,
        lastError: null,
        leaseUntil: iso(3),
      }),
    ]);
    await port.completeJob("j1", 2);
    expect(await port.jobs(U, "done")).toEqual([expect.objectContaining({ id: "j1" })]);
    expect(await port.renewJob("j1", 2, iso(10))).toBe(false);
  });
});
