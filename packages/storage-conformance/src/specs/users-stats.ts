import { expect } from "vitest";
import { makeEdge, makeVersion, stored, unit } from "../records.js";
import { conformanceSpec } from "../spec.js";

const U = { userId: "u1" };

export const usersStats = conformanceSpec("users and stats", ({ test }) => {
  test("users() lists every user with stored state: memories, kv entries or jobs", async (port) => {
    expect(await port.users()).toEqual([]);
    await port.write({ userId: "mem" }, { upsert: [stored({ id: "a", userId: "mem" })] });
    await port.write({ userId: "kv" }, { kvPut: [{ namespace: ["n"], key: "k", value: "v" }] });
    await port.write(
      { userId: "job" },
      { jobs: [{ id: "j", type: "t", payload: {}, runAt: "2026-01-01T00:00:00.000Z" }] },
    );
    expect((await port.users()).sort()).toEqual(["job", "kv", "mem"]);
  });

  test("stats(scope) counts the user's state by kind, tier and job status", async (port) => {
    await port.write(U, {
      upsert: [
        stored({ id: "m1", userId: "u1" }, unit(1, 0, 0, 0)),
        stored({ id: "m2", userId: "u1" }, unit(0, 1, 0, 0)),
        stored({ id: "f1", userId: "u1", kind: "fact", tier: "long" }),
      ],
      history: [
        makeVersion({ memoryId: "m1", userId: "u1", version: 1 }),
        makeVersion({ memoryId: "m1", userId: "u1", version: 2 }),
      ],
      edges: [makeEdge("u1", "m1", "f1", "derived_from")],
      kvPut: [{ namespace: ["n"], key: "k", value: "v" }],
      jobs: [
        { id: "j1", type: "t", payload: {}, runAt: "2026-01-01T00:00:00.000Z" },
        { id: "j2", type: "t", payload: {}, runAt: "2026-01-02T00:00:00.000Z" },
      ],
    });
    await port.claimJobs({ now: "2026-01-01T00:00:00.000Z", limit: 1, leaseMs: 1000 });
    await port.write({ userId: "u2" }, { upsert: [stored({ id: "x", userId: "u2" }, unit(1, 0, 0, 0))] });
    expect(await port.stats(U)).toEqual({
      memories: 3,
      byKind: { message: 2, fact: 1 },
      byTier: { short: 2, long: 1 },
      vectors: 2,
      history: 2,
      edges: 1,
      kv: 1,
      jobs: { queued: 1, running: 1 },
      users: 1,
    });
  });

  test("stats() without a scope counts the whole store", async (port) => {
    await port.write(U, { upsert: [stored({ id: "m1", userId: "u1" }, unit(1, 0, 0, 0))] });
    await port.write(
      { userId: "u2" },
      { upsert: [stored({ id: "m2", userId: "u2", kind: "page", tier: "mid" })] },
    );
    expect(await port.stats()).toMatchObject({
      memories: 2,
      byKind: { message: 1, page: 1 },
      byTier: { short: 1, mid: 1 },
      vectors: 1,
      users: 2,
    });
  });

  test("stats().users agrees with users()", async (port) => {
    await port.write({ userId: "mem" }, { upsert: [stored({ id: "a", userId: "mem" })] });
    await port.write({ userId: "kv" }, { kvPut: [{ namespace: ["n"], key: "k", value: "v" }] });
    expect((await port.stats()).users).toBe((await port.users()).length);
  });

  test("stats of a user without state are all zero", async (port) => {
    await port.write(U, { upsert: [stored({ id: "m1", userId: "u1" })] });
    expect(await port.stats({ userId: "nobody" })).toEqual({
      memories: 0,
      byKind: {},
      byTier: {},
      vectors: 0,
      history: 0,
      edges: 0,
      kv: 0,
      jobs: {},
      users: 0,
    });
  });
});
