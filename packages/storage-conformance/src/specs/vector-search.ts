import { expect } from "vitest";
import { iso, sortedIds, stored, unit } from "../records.js";
import { conformanceSpec } from "../spec.js";
import { COMMON_VECTOR, FILTER_CASES, FIXTURE_SCOPE, writeFilterFixture } from "./filter-fixture.js";

const U = { userId: "u1" };
const E1 = unit(1, 0, 0, 0);

const POINTS = [
  stored({ id: "across", userId: "u1" }, unit(0, 1, 0, 0)),
  stored({ id: "exact", userId: "u1" }, unit(1, 0, 0, 0)),
  stored({ id: "opposite", userId: "u1" }, unit(-1, 0, 0, 0)),
  stored({ id: "diagonal", userId: "u1" }, unit(1, 1, 0, 0)),
  stored({ id: "novector", userId: "u1" }, null),
];

const ids = (hits: readonly { id: string }[]) => hits.map((h) => h.id);

export const vectorSearch = conformanceSpec("vectorSearch", ({ test }) => {
  test("returns the nearest first, with cosine scores", async (port) => {
    await port.write(U, { upsert: POINTS });
    const hits = await port.vectorSearch(U, { vector: E1, k: 10 });
    expect(ids(hits)).toEqual(["exact", "diagonal", "across", "opposite"]);
    expect(hits.map((h) => h.score)).toEqual([
      expect.closeTo(1, 5),
      expect.closeTo(Math.SQRT1_2, 5),
      expect.closeTo(0, 5),
      expect.closeTo(-1, 5),
    ]);
  });

  test("returns at most k hits, the nearest ones", async (port) => {
    await port.write(U, { upsert: POINTS });
    expect(ids(await port.vectorSearch(U, { vector: unit(0, 1, 0, 0), k: 2 }))).toEqual([
      "across",
      "diagonal",
    ]);
  });

  test("sees upserts and deletes made after an earlier search", async (port) => {
    await port.write(U, { upsert: POINTS });
    expect(ids(await port.vectorSearch(U, { vector: E1, k: 1 }))).toEqual(["exact"]);
    await port.write(U, {
      upsert: [
        stored({ id: "exact", userId: "u1" }, unit(0, 0, 1, 0)),
        stored({ id: "new", userId: "u1" }, unit(1, 0.01, 0, 0)),
      ],
    });
    expect(ids(await port.vectorSearch(U, { vector: E1, k: 1 }))).toEqual(["new"]);
    expect(ids(await port.vectorSearch(U, { vector: unit(0, 0, 1, 0), k: 1 }))).toEqual(["exact"]);
    await port.write(U, { deleteIds: ["new"] });
    expect(ids(await port.vectorSearch(U, { vector: E1, k: 1 }))).toEqual(["diagonal"]);
  });

  test("hides a record expired after an earlier search when asked for current ones", async (port) => {
    await port.write(U, { upsert: POINTS });
    await port.vectorSearch(U, { vector: E1, k: 10 });
    await port.write(U, { upsert: [stored({ id: "exact", userId: "u1", expiredAt: iso(1) }, E1)] });
    expect(ids(await port.vectorSearch(U, { vector: E1, k: 1, filter: { current: true } }))).toEqual([
      "diagonal",
    ]);
    expect(ids(await port.vectorSearch(U, { vector: E1, k: 1 }))).toEqual(["exact"]);
  });

  test("stays exact after most records of a large scope are deleted", async (port) => {
    // 1,200 directions on a half circle: the nearest to E1 is always the smallest surviving index.
    const angle = (i: number) => (i * Math.PI) / 1200;
    const all = Array.from({ length: 1200 }, (_, i) =>
      stored({ id: `v${i}`, userId: "u1" }, unit(Math.cos(angle(i)), Math.sin(angle(i)), 0, 0)),
    );
    await port.write(U, { upsert: all });
    await port.vectorSearch(U, { vector: E1, k: 1 });
    const survivors = all.map((s) => s.record.id).filter((_, i) => i % 12 === 0);
    await port.write(U, { deleteIds: all.map((s) => s.record.id).filter((_, i) => i % 12 !== 0) });
    expect(ids(await port.vectorSearch(U, { vector: E1, k: 200 }))).toEqual(survivors);
    await port.write(U, { upsert: [stored({ id: "late", userId: "u1" }, unit(1, 0.001, 0, 0))] });
    expect(ids(await port.vectorSearch(U, { vector: E1, k: 3 }))).toEqual(["v0", "late", "v12"]);
  });

  test("returns nothing for a scope without vectors", async (port) => {
    await port.write(U, { upsert: [stored({ id: "a", userId: "u1" }, null)] });
    expect(await port.vectorSearch(U, { vector: E1, k: 5 })).toEqual([]);
  });

  for (const { name, filter, ids: expected } of FILTER_CASES) {
    test(`applies the filter: ${name}`, async (port) => {
      await writeFilterFixture(port);
      const hits = await port.vectorSearch(FIXTURE_SCOPE, { vector: COMMON_VECTOR, k: 50, filter });
      expect(sortedIds(hits)).toEqual(expected);
    });
  }
});
