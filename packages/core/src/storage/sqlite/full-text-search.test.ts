import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryRecord } from "../../model/index.js";
import { testRecord } from "../../testing/index.js";
import { ftsMatch } from "./full-text-search.js";
import { SqliteStorage } from "./sqlite-storage.js";

const record = (id: string, userId: string, text: string, kind: MemoryRecord["kind"] = "message") =>
  testRecord(id, userId, text, { kind });

describe("ftsMatch", () => {
  it("ORs the quoted content words", () => {
    expect(ftsMatch("Where is the red kite?")).toBe('"red" OR "kite"');
  });

  it("quotes FTS5 syntax away", () => {
    expect(ftsMatch('"AND OR NEAR( * kite*')).toBe('"near" OR "kite"');
    expect(ftsMatch("body:secret rowid:x")).toBe('"body" OR "secret" OR "rowid" OR "x"');
  });

  it("is null when nothing searchable is left", () => {
    expect(ftsMatch("the and of")).toBeNull();
    expect(ftsMatch('"( * ^ - )"')).toBeNull();
  });
});

describe("textSearch", () => {
  const storage = new SqliteStorage({ path: ":memory:" });
  const u1 = { userId: "u1" };

  beforeAll(async () => {
    await storage.write(u1, {
      upsert: [
        { record: record("a", "u1", "The red kite circled the red barn"), vector: null },
        { record: record("b", "u1", "A kite festival near the beach"), vector: null },
        { record: record("c", "u1", "Grocery list: eggs, milk"), vector: null },
        { record: record("f", "u1", "red kite fact", "fact"), vector: null },
      ],
    });
    await storage.write(
      { userId: "u2" },
      { upsert: [{ record: record("z", "u2", "red kite red kite"), vector: null }] },
    );
  });
  afterAll(() => storage.close());

  it("ranks by BM25 with higher scores better, within the user only", async () => {
    const hits = await storage.textSearch(u1, { text: "red kite", k: 10 });
    expect(hits.map((h) => h.id).sort()).toEqual(["a", "b", "f"]);
    expect(hits[0]?.score).toBeGreaterThan(hits.at(-1)?.score as number);
    expect(hits.at(-1)?.id).toBe("b");
    for (let i = 1; i < hits.length; i++)
      expect(hits[i - 1]?.score).toBeGreaterThanOrEqual(hits[i]?.score as number);
  });

  it("respects k and filters", async () => {
    expect(await storage.textSearch(u1, { text: "red kite", k: 1 })).toHaveLength(1);
    const facts = await storage.textSearch(u1, { text: "red kite", k: 10, filter: { kinds: ["fact"] } });
    expect(facts.map((h) => h.id)).toEqual(["f"]);
  });

  it.each([
    '"AND OR NEAR( *',
    "kite AND",
    "NOT kite",
    "kite*",
    "-kite",
    "{body} : kite",
    "owner : kite",
    "kite^2",
    "'kite'",
    '"kite',
    "kite) OR (",
  ])("does not break on %j", async (text) => {
    const hits = await storage.textSearch(u1, { text, k: 10 });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => ["a", "b", "c", "f"].includes(h.id))).toBe(true);
  });

  it("never returns another user's rows, even for their words only", async () => {
    await storage.write(
      { userId: "u2" },
      { upsert: [{ record: record("y", "u2", "zeppelin hangar"), vector: null }] },
    );
    expect(await storage.textSearch(u1, { text: "zeppelin hangar", k: 10 })).toEqual([]);
    expect(
      (await storage.textSearch({ userId: "u2" }, { text: "zeppelin", k: 10 })).map((h) => h.id),
    ).toEqual(["y"]);
    expect(await storage.textSearch(u1, { text: "the of", k: 10 })).toEqual([]);
  });
});

describe("textSearch across kind blocks", () => {
  it("merges the kinds' ranges by score and follows a record whose kind changes", async () => {
    const storage = new SqliteStorage({ path: ":memory:" });
    const u = { userId: "u" };
    await storage.write(u, {
      upsert: [
        { record: record("m", "u", "otter otter otter swims"), vector: null },
        { record: record("s", "u", "an otter", "segment"), vector: null },
        { record: record("f", "u", "otter facts and more facts about rivers", "fact"), vector: null },
      ],
    });
    const all = await storage.textSearch(u, { text: "otter", k: 10 });
    expect(all.map((h) => h.id)).toEqual(["m", "s", "f"]);
    await storage.write(u, {
      upsert: [{ record: record("m", "u", "otter otter otter swims", "fact"), vector: null }],
    });
    const facts = await storage.textSearch(u, { text: "otter", k: 10, filter: { kinds: ["fact"] } });
    expect(facts.map((h) => h.id)).toEqual(["m", "f"]);
    expect(await storage.textSearch(u, { text: "otter", k: 10, filter: { kinds: ["message"] } })).toEqual([]);
    expect((await storage.get(u, ["m"]))[0]?.kind).toBe("fact");
    await storage.close();
  });
});

describe("textSearch with an id filter", () => {
  it("finds exactly the wanted rows, at either end of the block and across kinds", async () => {
    const storage = new SqliteStorage({ path: ":memory:" });
    const u = { userId: "u" };
    const texts = Array.from({ length: 40 }, (_, i) => record(`m${i}`, "u", `heron number ${i}`));
    await storage.write(u, {
      upsert: [...texts, record("f", "u", "heron fact", "fact")].map((r) => ({ record: r, vector: null })),
    });
    const ids = ["m0", "m39", "f", "missing"];
    const hits = await storage.textSearch(u, { text: "heron", k: 10, filter: { ids } });
    expect(hits.map((h) => h.id).sort()).toEqual(["f", "m0", "m39"]);
    expect(await storage.textSearch(u, { text: "heron", k: 10, filter: { ids: [] } })).toEqual([]);
    expect(await storage.textSearch({ userId: "v" }, { text: "heron", k: 10, filter: { ids } })).toEqual([]);
    await storage.close();
  });
});

describe("textSearch within a time window", () => {
  // Rows of the window match the query weakly, rows outside it strongly: the window's best must come back,
  // whether the window is small enough to be read up front (its rowids) or not (matches joined and refused).
  const inWindow = (i: number) => `2026-02-${String(1 + (i % 28)).padStart(2, "0")}T10:00:00.000Z`;
  const dated = (id: string, text: string, validFrom: string, userId = "u1") =>
    testRecord(id, userId, text, { validFrom, createdAt: validFrom });
  const window = { from: "2026-02-01T00:00:00.000Z", to: "2026-02-28T23:59:59.999Z" };

  for (const inside of [40, 5000]) {
    it(`returns the window's best matches (${inside} rows in the window)`, async () => {
      const storage = new SqliteStorage({ path: ":memory:" });
      const outside = Array.from({ length: 3000 }, (_, i) =>
        dated(`out${i}`, `kite kite kite flying ${i}`, "2025-06-01T00:00:00.000Z"),
      );
      const within = Array.from({ length: inside }, (_, i) =>
        dated(
          `in${i}`,
          `a kite ${i % 7 === 0 ? "kite " : ""}seen over the long windy beach ${i}`,
          inWindow(i),
        ),
      );
      const undated = testRecord("undated", "u1", "kite kite", { validFrom: null as never });
      const other = dated("other", "kite kite kite", inWindow(0), "u2");
      await storage.write({ userId: "u2" }, { upsert: [{ record: other, vector: null }] });
      const all = [...outside, ...within].map((record) => ({ record, vector: null }));
      for (let i = 0; i < all.length; i += 1000)
        await storage.write({ userId: "u1" }, { upsert: all.slice(i, i + 1000) });
      await storage.write({ userId: "u1" }, { upsert: [{ record: undated, vector: null }] });

      const hits = await storage.textSearch({ userId: "u1" }, { text: "kite", k: 10, filter: window });
      expect(hits).toHaveLength(10);
      expect(hits.every((h) => h.id.startsWith("in"))).toBe(true);
      // The same ranking through the id filter, another path: the window's rows named one by one.
      const named = await storage.textSearch(
        { userId: "u1" },
        { text: "kite", k: 10, filter: { ids: within.map((r) => r.id) } },
      );
      expect(hits.map((h) => h.id)).toEqual(named.map((h) => h.id));
      // Those that say "kite" twice rank first.
      const twice = Math.min(10, Math.ceil(inside / 7));
      expect(hits.slice(0, twice).every((h) => Number(h.id.slice(2)) % 7 === 0)).toBe(true);
      await storage.close();
    });
  }
});
