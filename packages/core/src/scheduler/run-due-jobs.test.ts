import { afterEach, describe, expect, it } from "vitest";
import { systemClock } from "../model/index.js";
import { SqliteStorage } from "../storage/sqlite/sqlite-storage.js";
import { runDueJobs } from "./run-due-jobs.js";

const stores: SqliteStorage[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LEASE_MS = 150;

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
    expect(report).toEqual({ completed: 2, retried: 0, failed: 0 });
    expect((await storage.jobs({ userId: "u1" }, "done")).map((j) => j.id).sort()).toEqual(["next", "slow"]);
  });
});
