import type Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { testRecord } from "../../testing/index.js";
import { KnownRows } from "./known-rows.js";
import { RecordCache } from "./record-cache.js";
import { RowBlocks } from "./row-blocks.js";
import { SqliteStorage } from "./sqlite-storage.js";

// One store with two users whose texts share every word, so any lookup that crossed users would match.
const storage = new SqliteStorage({ path: ":memory:" });
const db = (storage as unknown as { db: Database.Database }).db;
const prepare = (sql: string) => db.prepare(sql);
const blocks = new RowBlocks(db);
const words = "the lighthouse keeper paints the red door";

await storage.write(
  { userId: "ana" },
  {
    upsert: ["a1", "a2", "a3"].map((id) => ({
      record: testRecord(id, "ana", `${id} ${words}`),
      vector: null,
    })),
  },
);
await storage.write(
  { userId: "bo" },
  { upsert: ["b1", "b2"].map((id) => ({ record: testRecord(id, "bo", `${id} ${words}`), vector: null })) },
);
afterAll(() => storage.close());

const rowidOf = (id: string) =>
  db.prepare("SELECT rowid FROM memories WHERE id = ?").pluck().get(id) as number;
const anaRowids = ["a1", "a2", "a3"].map(rowidOf);

describe("the full-text search's known rows are kept per user", () => {
  it("a lookup by another user's rowids, after the owner read them, sees none of them", () => {
    const known = new KnownRows(db, prepare);
    expect([...known.rows("ana", anaRowids).values()].map((r) => r.id)).toEqual(["a1", "a2", "a3"]);
    // The rows are remembered now; bo asking for the very same rowids gets nothing back, not ana's.
    const seenByBo = known.rows("bo", anaRowids);
    expect(anaRowids.map((rowid) => seenByBo.get(rowid))).toEqual([undefined, undefined, undefined]);
    expect([...seenByBo.values()]).toEqual([]);
  });

  it("ids of another user resolve to no rowid, before and after the owner looked them up", () => {
    const known = new KnownRows(db, prepare);
    const boRanges = blocks.ranges("bo");
    expect(known.rowids("bo", ["a1", "a2", "b1"], boRanges)).toEqual([rowidOf("b1")]);
    expect(known.rowids("ana", ["a1", "a2", "b1"], blocks.ranges("ana"))).toEqual(anaRowids.slice(0, 2));
    expect(known.rowids("bo", ["a1", "a2"], boRanges)).toEqual([]);
  });

  it("a write by one user forgets only that user's rows written in place", () => {
    const known = new KnownRows(db, prepare);
    known.rows("ana", anaRowids);
    known.rows("bo", [rowidOf("b1")]);
    known.written("bo", ["a1", "b1"]);
    expect(known.rows("ana", []).has(rowidOf("a1"))).toBe(true);
    expect(known.rows("bo", []).has(rowidOf("b1"))).toBe(false);
  });
});

describe("the record cache is kept per user", () => {
  it("hands a user only their own records, however the ids are asked for", () => {
    const records = new RecordCache(prepare);
    expect(records.read("ana", ["a1", "b1"]).map((r) => r.id)).toEqual(["a1"]);
    expect(records.read("bo", ["a1", "b1", "a2"]).map((r) => r.id)).toEqual(["b1"]);
    // Forgetting bo's copy of a1 (which bo never had) leaves ana's in place, and ana's reads stay hers.
    records.forget("bo", ["a1"]);
    expect(records.read("ana", ["a1", "a2"]).map((r) => [r.id, r.userId])).toEqual([
      ["a1", "ana"],
      ["a2", "ana"],
    ]);
  });

  it("through the store: a search or get by another user's ids finds nothing of the owner's", async () => {
    await storage.get({ userId: "ana" }, ["a1", "a2"]);
    expect(await storage.get({ userId: "bo" }, ["a1", "a2"])).toEqual([]);
    const hits = await storage.textSearch(
      { userId: "bo" },
      { text: "lighthouse keeper", k: 10, filter: { ids: ["a1", "a2", "a3", "b2"] } },
    );
    expect(hits.map((h) => h.id)).toEqual(["b2"]);
  });
});

describe("the record cache", () => {
  it("returns every record asked for when the read fills it past its bound, those it remembered and those it reads", () => {
    const records = new RecordCache(prepare, 2);
    expect(records.read("ana", ["a1", "a2"]).map((r) => r.id)).toEqual(["a1", "a2"]);
    // Two remembered, one more read: past the bound of 2, so the memory starts over mid-read.
    expect(records.read("ana", ["a1", "a2", "a3"]).map((r) => r.id)).toEqual(["a1", "a2", "a3"]);
    expect(records.read("bo", ["b1", "b2"]).map((r) => r.id)).toEqual(["b1", "b2"]);
    expect(records.read("ana", ["a3", "a1", "a2"]).map((r) => r.id)).toEqual(["a3", "a1", "a2"]);
    // A read larger than the bound is returned whole (and not remembered).
    const big = new RecordCache(prepare, 1);
    expect(big.read("ana", ["a1", "a2", "a3"]).map((r) => r.id)).toEqual(["a1", "a2", "a3"]);
    expect(big.read("ana", ["a1", "a2", "a3"]).map((r) => r.id)).toEqual(["a1", "a2", "a3"]);
  });
});
