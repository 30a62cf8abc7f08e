import { afterEach, describe, expect, it } from "vitest";
import { systemClock } from "../model/index.js";
import { SqliteStorage } from "../storage/sqlite/sqlite-storage.js";
import { runDueJobs } from "./run-due-jobs.js";

const stores: SqliteStorage[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// Long enough that a renewal (a third of it apart) survives a busy event loop on a loaded machine.
const LEASE_MS = 400;

describe("runDueJobs", () => {
  it("keeps the leases of the jobs it holds alive, so no other worker takes one while it runs or waits", async () => {
    const storage = new SqliteStorage({ path: ":memory:" });
    stores.push(storage);
    const now = new Date().toISOString();
    await storage.write(
      { userId: "u1" },
      {
        jobs: [
          { id: "slow", type: "work", payload: {}, runAt: now },
          { id: "next", type: "work", payload: {}, runAt: new Date(Date.parse(now) + 1).toISOString() },
        ],
      },
    );
    const ran: string[] = [];
    // Another worker tries to claim while "slow" runs past three of its leases and "next" waits behind it.
    const rival = (async () => {
      await sleep(LEASE_MS * 3);
      return storage.claimJobs({ now: new Date().toISOString(), limit: 10, leaseMs: LEASE_MS });
    })();
    const report = await runDueJobs({
      storage,
      clock: systemClock,
      leaseMs: LEASE_MS,
      handlers: {
        work: async (job) => {
          ran.push(job.id);
          if (job.id === "slow") await sleep(LEASE_MS * 5);
        },
      },
    });
    expect(await rival).toEqual([]);
    expect(ran).toEqual(["slow", "next"]);
    expect(report).toEqual({ completed: 2, retried: 0, failed: 0, errors: [] });
    expect((await storage.jobs({ userId: "u1" }, "done")).map((j) => j.id).sort()).toEqual(["next", "slow"]);
  });

  it("stops a job at its next checkpoint when the signal fires: its finished steps stay, it and the unstarted jobs are due again at once", async () => {
    const storage = new SqliteStorage({ path: ":memory:" });
    stores.push(storage);
    const now = new Date().toISOString();
    const jobs = ["long", "after"].map((id, i) => ({
      id,
      type: "work",
      payload: {},
      runAt: new Date(Date.parse(now) + i).toISOString(),
    }));
    await storage.write({ userId: "u1" }, { jobs });
    const controller = new AbortController();
    const stepsDone: number[] = [];
    const run = runDueJobs({
      storage,
      clock: systemClock,
      signal: controller.signal,
      handlers: {
        work: async (job, control) => {
          if (job.id !== "long") return;
          for (let step = 1; step <= 1000; step++) {
            stepsDone.push(step);
            if (step === 3) controller.abort(new Error("user pressed Ctrl-C"));
            await control.checkpoint();
          }
        },
      },
    });
    await expect(run).rejects.toThrow("user pressed Ctrl-C");
    expect(stepsDone).toEqual([1, 2, 3]);
    const queued = await storage.jobs({ userId: "u1" }, "queued");
    expect(queued.map((j) => j.id).sort()).toEqual(["after", "long"]);
    // Due now, not after a lease or a back-off: the next run takes both.
    const again = await storage.claimJobs({ now: new Date().toISOString(), limit: 10, leaseMs: LEASE_MS });
    expect(again.map((j) => j.id).sort()).toEqual(["after", "long"]);
  });

  it("stops a job at its next checkpoint once another worker took it over, and leaves it to that worker", async () => {
    const storage = new SqliteStorage({ path: ":memory:" });
    stores.push(storage);
    await storage.write(
      { userId: "u1" },
      { jobs: [{ id: "long", type: "work", payload: {}, runAt: new Date().toISOString() }] },
    );
    let steps = 0;
    const report = await runDueJobs({
      storage,
      clock: systemClock,
      leaseMs: LEASE_MS,
      handlers: {
        work: async (_job, control) => {
          for (;;) {
            steps++;
            // This worker stalls past its lease (no checkpoint, so no renewal) and another claims the job.
            const stalledUntil = Date.now() + LEASE_MS * 1.5;
            while (Date.now() < stalledUntil) {}
            if (steps === 1) {
              const rival = await storage.claimJobs({
                now: new Date().toISOString(),
                limit: 1,
                leaseMs: 60_000,
              });
              expect(rival.map((j) => j.id)).toEqual(["long"]);
            }
            await sleep(LEASE_MS / 2);
            await control.checkpoint();
          }
        },
      },
    });
    expect(steps).toBeLessThanOrEqual(2);
    expect(report).toEqual({ completed: 0, retried: 0, failed: 0, errors: [] });
    // Still the rival's: running under its lease, not completed or failed by the worker that lost it.
    expect((await storage.jobs({ userId: "u1" })).map((j) => [j.id, j.status, j.attempts])).toEqual([
      ["long", "running", 2],
    ]);
  });

  it("renews the lease of a job that works for longer than its lease in blocking steps with checkpoints between", async () => {
    const storage = new SqliteStorage({ path: ":memory:" });
    stores.push(storage);
    await storage.write(
      { userId: "u1" },
      { jobs: [{ id: "long", type: "work", payload: {}, runAt: new Date().toISOString() }] },
    );
    const rivals: string[] = [];
    const report = await runDueJobs({
      storage,
      clock: systemClock,
      leaseMs: LEASE_MS,
      handlers: {
        work: async (_job, control) => {
          // Eight times the lease in all, in steps that each hold the thread for a fifth of it.
          for (let step = 0; step < 40; step++) {
            const busyUntil = Date.now() + LEASE_MS / 5;
            while (Date.now() < busyUntil) {}
            const taken = await storage.claimJobs({
              now: new Date().toISOString(),
              limit: 1,
              leaseMs: LEASE_MS,
            });
            rivals.push(...taken.map((j) => j.id));
            await control.checkpoint();
          }
        },
      },
    });
    expect(rivals).toEqual([]);
    expect(report).toEqual({ completed: 1, retried: 0, failed: 0, errors: [] });
  });
});
