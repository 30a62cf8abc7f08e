import { EngramError } from "@engram/core";
import { expect } from "vitest";
import { makeVersion, stored, unit } from "../records.js";
import { conformanceSpec } from "../spec.js";

const U = { userId: "u1" };

export const insert = conformanceSpec("insert", ({ test }) => {
  test("stores new records like upsert, with their history and vectors", async (port) => {
    await port.write(U, {
      insert: [stored({ id: "m1", userId: "u1", text: "the heron stood still" }, unit(1, 0, 0, 0))],
      history: [makeVersion({ memoryId: "m1", userId: "u1", version: 1 })],
    });
    expect((await port.get(U, ["m1"])).map((r) => r.text)).toEqual(["the heron stood still"]);
    expect((await port.getVectors(U, ["m1"])).size).toBe(1);
    expect(await port.history(U, "m1")).toHaveLength(1);
    expect((await port.textSearch(U, { text: "heron", k: 5 })).map((h) => h.id)).toEqual(["m1"]);
  });

  test("leaves a record already stored under the id exactly as it is, history included", async (port) => {
    const first = stored({ id: "m1", userId: "u1", text: "first", tier: "mid" }, unit(1, 0, 0, 0));
    await port.write(U, {
      insert: [first],
      history: [makeVersion({ memoryId: "m1", userId: "u1", version: 1, text: "first" })],
    });
    const before = { records: await port.get(U, ["m1"]), history: await port.history(U, "m1") };
    const result = await port.write(U, {
      insert: [
        stored({ id: "m1", userId: "u1", text: "second", tier: "short" }, unit(0, 1, 0, 0)),
        stored({ id: "m2", userId: "u1", text: "new one" }),
      ],
      history: [
        makeVersion({
          memoryId: "m1",
          userId: "u1",
          version: 1,
          text: "second",
          at: "2027-01-01T00:00:00.000Z",
        }),
        makeVersion({ memoryId: "m2", userId: "u1", version: 1, text: "new one" }),
      ],
    });
    expect(result).toEqual({ inserted: ["m2"], conflicts: [] });
    expect(await port.get(U, ["m1"])).toEqual(before.records);
    expect(await port.history(U, "m1")).toEqual(before.history);
    expect((await port.getVectors(U, ["m1"])).get("m1")).toEqual(unit(1, 0, 0, 0));
    expect(await port.history(U, "m2")).toHaveLength(1);
    expect(await port.count(U)).toBe(2);
    expect((await port.stats(U)).history).toBe(2);
  });

  test("the same id twice in one batch stores the first, with its history", async (port) => {
    await port.write(U, {
      insert: [
        stored({ id: "m1", userId: "u1", text: "one" }),
        stored({ id: "m1", userId: "u1", text: "two" }),
      ],
      history: [makeVersion({ memoryId: "m1", userId: "u1", version: 1, text: "one" })],
    });
    expect((await port.get(U, ["m1"])).map((r) => r.text)).toEqual(["one"]);
    expect(await port.history(U, "m1")).toHaveLength(1);
  });

  test("another user's id is refused and the batch leaves nothing", async (port) => {
    await port.write({ userId: "u2" }, { upsert: [stored({ id: "taken", userId: "u2" })] });
    const error = await port
      .write(U, {
        insert: [stored({ id: "m1", userId: "u1" }), stored({ id: "taken", userId: "u1" })],
        jobs: [{ id: "j1", type: "embed", payload: {}, runAt: "2026-01-01T00:00:00.000Z" }],
      })
      .catch((e: unknown) => e);
    expect(EngramError.isInstance(error) && error.code).toBe("SCOPE_REQUIRED");
    expect(await port.count(U)).toBe(0);
    expect(await port.jobs(U)).toEqual([]);
  });
});
