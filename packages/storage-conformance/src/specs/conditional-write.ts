import { expect } from "vitest";
import { makeEdge, makeRecord, unit } from "../records.js";
import { conformanceSpec } from "../spec.js";

const U = { userId: "u1" };

const job = (id: string) => ({ id, type: "embed", payload: {}, runAt: "2026-01-01T00:00:00.000Z" });

export const conditionalWrite = conformanceSpec("conditional write", ({ test }) => {
  test("stores the batch while every expected record is stored exactly as read", async (port) => {
    await port.write(U, {
      upsert: [
        {
          record: makeRecord({ id: "m1", userId: "u1", status: "pending", metadata: { a: 1, b: 2 } }),
          vector: null,
        },
      ],
    });
    const [read] = await port.get(U, ["m1"]);
    if (!read) throw new Error("m1 not stored");
    const moved = { ...read, tier: "mid" as const };
    const result = await port.write(U, { upsert: [{ record: moved, vector: null }], expect: [read] });
    expect(result.conflicts).toEqual([]);
    expect(await port.get(U, ["m1"])).toEqual([moved]);
  });

  test("stores nothing of the batch over a record changed since it was read (pending over ready)", async (port) => {
    const pending = makeRecord({ id: "m1", userId: "u1", status: "pending" });
    await port.write(U, { upsert: [{ record: pending, vector: null }] });
    const [read] = await port.get(U, ["m1"]);
    if (!read) throw new Error("m1 not stored");
    // Another writer (the embed job) stores the record ready with its vector.
    const ready = { ...read, status: "ready" as const };
    await port.write(U, { upsert: [{ record: ready, vector: unit(1, 0, 0, 0) }] });
    // The first writer (the tier job) writes back the copy it read, moved to mid-term, with no vector.
    const stale = { ...read, tier: "mid" as const };
    const other = makeRecord({ id: "m2", userId: "u1" });
    const result = await port.write(U, {
      upsert: [
        { record: stale, vector: null },
        { record: other, vector: null },
      ],
      edges: [makeEdge("u1", "m1", "m2")],
      jobs: [job("j1")],
      expect: [read],
    });
    expect(result).toEqual({ inserted: [], conflicts: ["m1"] });
    expect(await port.get(U, ["m1", "m2"])).toEqual([ready]);
    expect([...(await port.getVectors(U, ["m1"])).keys()]).toEqual(["m1"]);
    expect(await port.edges(U, { from: "m1" })).toEqual([]);
    expect(await port.jobs(U)).toEqual([]);
  });

  test("a record removed since it was read, or never stored, is a conflict", async (port) => {
    const record = makeRecord({ id: "m1", userId: "u1" });
    await port.write(U, { upsert: [{ record, vector: null }] });
    await port.write(U, { deleteIds: ["m1"] });
    const ghost = makeRecord({ id: "m9", userId: "u1" });
    const result = await port.write(U, {
      upsert: [{ record: { ...record, tier: "mid" }, vector: null }],
      expect: [record, ghost],
    });
    expect(result.conflicts).toEqual(["m1", "m9"]);
    expect(await port.count(U)).toBe(0);
  });

  test("another user's record under the id is a conflict, not a match", async (port) => {
    const theirs = makeRecord({ id: "m1", userId: "u2" });
    await port.write({ userId: "u2" }, { upsert: [{ record: theirs, vector: null }] });
    const result = await port.write(U, {
      upsert: [{ record: makeRecord({ id: "m2", userId: "u1" }), vector: null }],
      expect: [{ ...theirs, userId: "u1" }],
    });
    expect(result.conflicts).toEqual(["m1"]);
    expect(await port.count(U)).toBe(0);
  });
});
