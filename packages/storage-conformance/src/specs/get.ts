import { expect } from "vitest";
import { makeRecord, sortedIds } from "../records.js";
import { conformanceSpec } from "../spec.js";

const U = { userId: "u1" };

export const get = conformanceSpec("get", ({ test }) => {
  test("returns the records with the given ids and skips unknown ones", async (port) => {
    const records = ["a", "b", "c"].map((id) => makeRecord({ id, userId: "u1" }));
    await port.write(U, { upsert: records.map((record) => ({ record, vector: null })) });
    const got = await port.get(U, ["c", "missing", "a"]);
    expect(sortedIds(got)).toEqual(["a", "c"]);
    expect(got.find((r) => r.id === "c")).toEqual(records[2]);
  });

  test("returns nothing for an empty id list", async (port) => {
    await port.write(U, { upsert: [{ record: makeRecord({ id: "a", userId: "u1" }), vector: null }] });
    expect(await port.get(U, [])).toEqual([]);
  });

  test("returns expired records too (get is by id, not by validity)", async (port) => {
    const record = makeRecord({ id: "old", userId: "u1", expiredAt: "2026-02-01T00:00:00.000Z" });
    await port.write(U, { upsert: [{ record, vector: null }] });
    expect(await port.get(U, ["old"])).toEqual([record]);
  });

  test("accepts more ids than a query can bind (e.g. an export of a large scope)", async (port) => {
    await port.write(U, { upsert: [{ record: makeRecord({ id: "a", userId: "u1" }), vector: null }] });
    const ids = [...Array.from({ length: 40_000 }, (_, i) => `missing-${i}`), "a"];
    expect(sortedIds(await port.get(U, ids))).toEqual(["a"]);
  });
});
