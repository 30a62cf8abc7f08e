import { expect } from "vitest";
import { iso, sortedIds, stored } from "../records.js";
import { conformanceSpec } from "../spec.js";
import { COMMON_WORD, FILTER_CASES, FIXTURE_SCOPE, writeFilterFixture } from "./filter-fixture.js";

const U = { userId: "u1" };

/** "harbour" is in four documents, "lighthouse" in one: BM25 must rank the rare term's document first. */
const CORPUS = [
  stored({ id: "common1", userId: "u1", text: "the harbour market sells fresh fish" }),
  stored({ id: "common2", userId: "u1", text: "a harbour cafe opens early" }),
  stored({ id: "rare", userId: "u1", text: "the lighthouse keeper painted it white" }),
  stored({ id: "common3", userId: "u1", text: "harbour ferry schedule changed" }),
  stored({ id: "common4", userId: "u1", text: "boats in the harbour at night" }),
  stored({ id: "unrelated", userId: "u1", text: "mountain trail with snow" }),
];

export const textSearch = conformanceSpec("textSearch", ({ test }) => {
  test("ranks the document with the rare query term first and returns every match once", async (port) => {
    await port.write(U, { upsert: CORPUS });
    const hits = await port.textSearch(U, { text: "harbour lighthouse", k: 10 });
    expect(hits[0]?.id).toBe("rare");
    expect(sortedIds(hits)).toEqual(["common1", "common2", "common3", "common4", "rare"]);
  });

  test("returns hits best first (scores never increase)", async (port) => {
    await port.write(U, { upsert: CORPUS });
    const scores = (await port.textSearch(U, { text: "harbour lighthouse fish", k: 10 })).map((h) => h.score);
    expect(scores.length).toBeGreaterThan(2);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  test("returns at most k hits, the best ones", async (port) => {
    await port.write(U, { upsert: CORPUS });
    const all = await port.textSearch(U, { text: "harbour lighthouse", k: 10 });
    const top2 = await port.textSearch(U, { text: "harbour lighthouse", k: 2 });
    expect(top2.map((h) => h.id)).toEqual(all.slice(0, 2).map((h) => h.id));
  });

  test("prefers a document matching more query terms", async (port) => {
    await port.write(U, {
      upsert: [
        stored({ id: "one", userId: "u1", text: "violin lessons on monday" }),
        stored({ id: "both", userId: "u1", text: "violin and cello duet" }),
        stored({ id: "other", userId: "u1", text: "cello strings arrived" }),
      ],
    });
    expect((await port.textSearch(U, { text: "violin cello", k: 5 }))[0]?.id).toBe("both");
  });

  test("matches regardless of letter case", async (port) => {
    await port.write(U, { upsert: [stored({ id: "a", userId: "u1", text: "Visited KYOTO in April" })] });
    expect((await port.textSearch(U, { text: "kyoto april", k: 5 })).map((h) => h.id)).toEqual(["a"]);
    expect((await port.textSearch(U, { text: "KyOtO", k: 5 })).map((h) => h.id)).toEqual(["a"]);
  });

  test("searches the speaker name and the neighbouring context with the text", async (port) => {
    await port.write(U, {
      upsert: [
        stored({ id: "ctx", userId: "u1", text: "yes, every weekend", context: "do you still go kayaking?" }),
        stored({ id: "named", userId: "u1", text: "sounds good", name: "Bartholomew" }),
      ],
    });
    expect((await port.textSearch(U, { text: "kayaking", k: 5 })).map((h) => h.id)).toEqual(["ctx"]);
    expect((await port.textSearch(U, { text: "bartholomew", k: 5 })).map((h) => h.id)).toEqual(["named"]);
  });

  test("treats query syntax characters as plain text", async (port) => {
    await port.write(U, { upsert: CORPUS });
    const hits = await port.textSearch(U, { text: 'lighthouse" OR (NEAR* -:^ {col}: AND', k: 5 });
    expect(hits[0]?.id).toBe("rare");
  });

  test("returns nothing for a query without searchable words", async (port) => {
    await port.write(U, { upsert: CORPUS });
    expect(await port.textSearch(U, { text: "?! ...", k: 5 })).toEqual([]);
  });

  test("does not find deleted or expired-and-filtered memories", async (port) => {
    await port.write(U, {
      upsert: [
        stored({ id: "live", userId: "u1", text: "orchid greenhouse" }),
        stored({ id: "gone", userId: "u1", text: "orchid show" }),
        stored({ id: "old", userId: "u1", text: "orchid price", expiredAt: iso(5) }),
      ],
    });
    await port.write(U, { deleteIds: ["gone"] });
    expect(sortedIds(await port.textSearch(U, { text: "orchid", k: 5 }))).toEqual(["live", "old"]);
    expect(sortedIds(await port.textSearch(U, { text: "orchid", k: 5, filter: { current: true } }))).toEqual([
      "live",
    ]);
  });

  for (const { name, filter, ids } of FILTER_CASES) {
    test(`applies the filter: ${name}`, async (port) => {
      await writeFilterFixture(port);
      expect(sortedIds(await port.textSearch(FIXTURE_SCOPE, { text: COMMON_WORD, k: 50, filter }))).toEqual(
        ids,
      );
    });
  }
});
