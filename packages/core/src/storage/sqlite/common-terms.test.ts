import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryRecord } from "../../model/index.js";
import { seededRandom, testRecord } from "../../testing/index.js";
import type { TextQuery } from "../storage-port.js";
import { COMMON_SHARE, CommonTerms, MIN_SPLIT_ROWS, WIDESPREAD_ROWS } from "./common-terms.js";
import { ftsMatch } from "./full-text-search.js";
import { SqliteStorage } from "./sqlite-storage.js";

const record = (id: string, userId: string, text: string, kind: MemoryRecord["kind"] = "message") =>
  testRecord(id, userId, text, { kind });

// "alice" is in about half of the rows and "river" in a fifth: common (over 5%). "kite", "zeppelin"
// and "harbour" are each in about 2%: rare. Filler words pad the rows to varied lengths.
const FILLER = "morning evening garden window letter market bridge lantern pocket meadow".split(" ");
function text(random: () => number): string {
  const words: string[] = [];
  if (random() < 0.5) words.push("alice");
  if (random() < 0.2) words.push("river");
  if (random() < 0.02) words.push("kite");
  if (random() < 0.02) words.push("zeppelin");
  if (random() < 0.02) words.push("harbour");
  const filler = 2 + Math.floor(random() * 12);
  for (let i = 0; i < filler; i++) words.push(FILLER[Math.floor(random() * FILLER.length)] as string);
  for (let i = words.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [words[i], words[j]] = [words[j] as string, words[i] as string];
  }
  return words.join(" ");
}

describe("full-text search with common terms remembered", () => {
  const dir = mkdtempSync(join(tmpdir(), "engram-common-terms-"));
  const path = join(dir, "engram.db");
  const storage = new SqliteStorage({ path });
  let reference: Database.Database;
  const u1 = { userId: "u1" };
  const random = seededRandom(42);
  let next = 0;
  const add = async (userId: string, count: number, make = () => text(random)) => {
    const upsert = Array.from({ length: count }, () => ({
      record: record(`${userId}-${next++}`, userId, make()),
      vector: null,
    }));
    await storage.write({ userId }, { upsert });
  };

  /** Every match of the whole query in u1's rows of a kind, by FTS5 alone: [id, score (higher is better)]. */
  const exact = (query: string, kind: string | null = null, userId = "u1"): Map<string, number> => {
    const rows = reference
      .prepare(
        `SELECT m.id, bm25(memories_fts) AS s FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid
         WHERE memories_fts MATCH @q AND m.user_id = @userId AND (@kind IS NULL OR m.kind = @kind)`,
      )
      .raw()
      .all({ q: ftsMatch(query), kind, userId }) as [string, number][];
    return new Map(rows.map(([id, s]) => [id, -s]));
  };
  const holds = (id: string, words: string[]): boolean => {
    const row = reference.prepare("SELECT text FROM memories WHERE id = ?").pluck().get(id) as string;
    return words.some((w) => row.split(" ").includes(w));
  };
  const statsOf = (scores: number[], k: number) => {
    const top = [...scores].sort((a, b) => b - a).slice(0, k);
    const mean = top.reduce((a, b) => a + b, 0) / top.length;
    const sd = Math.sqrt(top.reduce((a, b) => a + (b - mean) ** 2, 0) / top.length);
    return { mean, sd, count: top.length, floor: Math.min(...top) };
  };

  beforeAll(async () => {
    await add("u1", 600);
    await add("u2", 300, () => `kite zeppelin alice ${text(random)}`);
    reference = new Database(path, { readonly: true });
  });

  afterAll(async () => {
    reference.close();
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists each row holding a rare term with the whole query's exact BM25, best first", async () => {
    for (const query of [
      "alice kite",
      "Alice and the river zeppelin",
      "harbour river",
      "kite zeppelin harbour",
    ]) {
      const hits = await storage.textSearch(u1, { text: query, k: 1000 });
      const want = exact(query);
      const rare = ["kite", "zeppelin", "harbour"].filter((w) => query.toLowerCase().includes(w));
      const listed = [...want.keys()].filter((id) => holds(id, rare));
      expect(hits.map((h) => h.id).sort()).toEqual(listed.sort());
      for (const h of hits) expect(h.score).toBeCloseTo(want.get(h.id) as number, 9);
      for (let i = 1; i < hits.length; i++) {
        expect(hits[i - 1]?.score as number).toBeGreaterThanOrEqual(hits[i]?.score as number);
      }
    }
  });

  it("counts rows matching common terms only in textStats, over the best statsOver matches", async () => {
    const query: TextQuery = { text: "alice kite", k: 10, statsOver: 100 };
    const hits = await storage.textSearch(u1, query);
    const kites = [...exact("kite").keys()].length;
    expect(kites).toBeGreaterThan(0);
    expect(hits).toHaveLength(Math.min(10, kites));
    const all = [...exact("alice kite").values()];
    expect(all.length).toBeGreaterThan(200); // "alice" alone matches about half of the 600 rows
    const stats = await storage.textStats(u1, query);
    const want = statsOf(all, 100);
    expect(stats?.count).toBe(100);
    expect(stats?.mean).toBeCloseTo(want.mean, 9);
    expect(stats?.sd).toBeCloseTo(want.sd, 9);
    expect(stats?.floor).toBeCloseTo(want.floor, 9);
    // Over every match when statsOver exceeds them.
    const wide = await storage.textStats(u1, { ...query, statsOver: 10_000 });
    expect(wide?.count).toBe(all.length);
    expect(wide?.mean).toBeCloseTo(statsOf(all, all.length).mean, 9);
  });

  it("treats as common exactly the terms found in more than 5% of the range's rows", async () => {
    const rows = 600;
    const share = (word: string) =>
      (reference
        .prepare(
          "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ? AND rowid IN (SELECT rowid FROM memories WHERE user_id = 'u1')",
        )
        .pluck()
        .get(`"${word}"`) as number) / rows;
    expect(share("alice")).toBeGreaterThan(COMMON_SHARE);
    expect(share("river")).toBeGreaterThan(COMMON_SHARE);
    expect(share("kite")).toBeLessThan(COMMON_SHARE);
    // A query of common terms only lists its best matches, exact.
    const hits = await storage.textSearch(u1, { text: "alice river", k: 50 });
    const want = [...exact("alice river").values()].sort((a, b) => b - a);
    expect(hits).toHaveLength(50);
    for (const [i, h] of hits.entries()) expect(h.score).toBeCloseTo(want[i] as number, 9);
  });

  it("stays exact as rows are appended, rewritten and deleted after the terms were remembered", async () => {
    const query = "alice river kite";
    const first = "u1-0";
    await storage.write(u1, {
      upsert: [{ record: record(first, "u1", "alice alice river kite"), vector: null }],
    });
    await storage.textSearch(u1, { text: query, k: 1000 }); // remember "alice" and "river", u1-0 included
    // Under 10% more rows, so the remembered scores are extended, not retaken.
    await add("u1", 20);
    await storage.write(u1, { upsert: [{ record: record(first, "u1", "kite harbour"), vector: null }] });
    await storage.write(u1, { deleteIds: ["u1-1", "u1-2"] });
    const hits = await storage.textSearch(u1, { text: query, k: 1000 });
    const want = exact(query);
    expect(hits.map((h) => h.id).sort()).toEqual([...want.keys()].filter((id) => holds(id, ["kite"])).sort());
    for (const h of hits) expect(h.score).toBeCloseTo(want.get(h.id) as number, 9);
    expect(hits.find((h) => h.id === first)?.score).toBeCloseTo(want.get(first) as number, 9);
    expect(hits.some((h) => h.id === "u1-1" || h.id === "u1-2")).toBe(false);
  });

  it("scores a row that takes the rowid of a deleted last row", async () => {
    const query = "alice kite";
    const last = () =>
      reference
        .prepare("SELECT id FROM memories WHERE user_id = 'u1' AND kind = 'message' ORDER BY rowid DESC")
        .pluck()
        .get() as string;
    await storage.textSearch(u1, { text: query, k: 1000 }); // the range's rows and terms remembered
    await storage.write(u1, { deleteIds: [last()] });
    await storage.textSearch(u1, { text: query, k: 1000 }); // remembered again, without that row
    await storage.write(u1, {
      upsert: [{ record: record("u1-reused", "u1", "alice kite kite"), vector: null }],
    });
    expect(last()).toBe("u1-reused");
    const hits = await storage.textSearch(u1, { text: query, k: 1000 });
    const want = exact(query);
    expect(hits.find((h) => h.id === "u1-reused")?.score).toBeCloseTo(want.get("u1-reused") as number, 9);
    expect((await storage.textStats(u1, { text: query, k: 1000, statsOver: 5000 }))?.count).toBe(want.size);
  });

  it("keeps only the wanted ids, with the same scores and statistics over them", async () => {
    const want = exact("alice zeppelin");
    const ids = [...want.keys()].filter((_, i) => i % 3 === 0);
    const query: TextQuery = { text: "alice zeppelin", k: 1000, statsOver: 1000, filter: { ids } };
    const hits = await storage.textSearch(u1, query);
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) {
      expect(ids).toContain(h.id);
      expect(holds(h.id, ["zeppelin"])).toBe(true);
      expect(h.score).toBeCloseTo(want.get(h.id) as number, 9);
    }
    const stats = await storage.textStats(u1, query);
    expect(stats?.count).toBe(ids.length);
  });

  it("remembers a term widespread in the index even where it is rare, with the same scores and listing", async () => {
    // A user with a few dozen facts: "alice", widespread across the index, is in one of them only.
    const u3 = { userId: "u3" };
    const facts = Array.from({ length: 40 }, (_, i) =>
      record(
        `u3-${i}`,
        "u3",
        i === 0 ? "alice keeps a kite" : i % 8 === 0 ? "a red kite" : `fact ${i} garden`,
        "fact",
      ),
    );
    await storage.write(u3, { upsert: facts.map((r) => ({ record: r, vector: null })) });
    expect(facts.length).toBeGreaterThanOrEqual(MIN_SPLIT_ROWS);
    expect(exact("alice").size).toBeGreaterThan(WIDESPREAD_ROWS);
    const query: TextQuery = { text: "alice kite", k: 100, filter: { kinds: ["fact"] } };
    for (let round = 0; round < 2; round++) {
      const hits = await storage.textSearch(u3, query);
      const want = exact("alice kite", "fact", "u3");
      // "kite" is common among these facts (5 of 40), "alice" rare there: the fact holding "alice" is
      // listed, with its exact score, and the kite-only facts count in the statistics.
      expect(hits.map((h) => h.id)).toEqual(["u3-0"]);
      expect(hits[0]?.score).toBeCloseTo(want.get("u3-0") as number, 9);
      expect((await storage.textStats(u3, query))?.count).toBe(want.size);
    }
  });

  it("follows an id to its new row when the record is deleted and written again, or changes kind", async () => {
    const id = "u1-10";
    const query: TextQuery = { text: "alice zeppelin", k: 10, filter: { ids: [id] } };
    await storage.write(u1, { upsert: [{ record: record(id, "u1", "alice zeppelin"), vector: null }] });
    expect((await storage.textSearch(u1, query)).map((h) => h.id)).toEqual([id]);
    await storage.write(u1, { deleteIds: [id] });
    expect(await storage.textSearch(u1, query)).toEqual([]);
    await storage.write(u1, {
      upsert: [{ record: record(id, "u1", "zeppelin alice", "fact"), vector: null }],
    });
    const hits = await storage.textSearch(u1, { ...query, filter: { ids: [id], kinds: ["fact"] } });
    expect(hits.map((h) => h.id)).toEqual([id]);
    expect(hits[0]?.score).toBeCloseTo(exact("alice zeppelin", "fact").get(id) as number, 9);
    // And back to a message: a new rowid again.
    await storage.write(u1, { upsert: [{ record: record(id, "u1", "zeppelin"), vector: null }] });
    expect((await storage.textSearch(u1, query)).map((h) => h.id)).toEqual([id]);
  });

  it("drops a listed record expired in place from current searches, and lists it again when restored", async () => {
    const id = "u1-40";
    const text = "alice harbour zeppelin";
    const current: TextQuery = { text, k: 1000, filter: { current: true, kinds: ["message"] } };
    const listed = async (query: TextQuery) => (await storage.textSearch(u1, query)).map((h) => h.id);
    await storage.write(u1, { upsert: [{ record: record(id, "u1", text), vector: null }] });
    expect(await listed(current)).toContain(id); // its row is remembered as current
    const expired = testRecord(id, "u1", text, { kind: "message", expiredAt: "2026-02-01T00:00:00.000Z" });
    await storage.write(u1, { upsert: [{ record: expired, vector: null }] });
    expect(await listed(current)).not.toContain(id);
    expect(await listed({ ...current, filter: { kinds: ["message"] } })).toContain(id);
    await storage.write(u1, { upsert: [{ record: record(id, "u1", text), vector: null }] });
    expect(await listed(current)).toContain(id);
  });

  it("never ranks or counts another user's rows", async () => {
    const hits = await storage.textSearch(u1, { text: "kite zeppelin alice", k: 1000, statsOver: 5000 });
    expect(hits.every((h) => h.id.startsWith("u1-"))).toBe(true);
    const stats = await storage.textStats(u1, { text: "kite zeppelin alice", k: 1000, statsOver: 5000 });
    expect(stats?.count).toBe(exact("kite zeppelin alice").size);
    const other = await storage.textSearch({ userId: "u2" }, { text: "kite", k: 1000 });
    expect(other).toHaveLength(300);
    expect(other.every((h) => h.id.startsWith("u2-"))).toBe(true);
  });

  describe("terms in more than WIDESPREAD_ROWS rows, not common in the range", () => {
    // u3: 400 rows; "quartz" in 20 of them (5%, not more: not common, but widespread), "opal" in 4.
    const u3 = { userId: "u3" };
    const quartz = (i: number) => i % 20 === 0;
    beforeAll(async () => {
      const ids = Array.from({ length: 400 }, (_, i) => `u3-${i}`);
      await storage.write(u3, {
        upsert: ids.map((id, i) => ({
          record: record(
            id,
            "u3",
            `${quartz(i) ? "quartz " : ""}${i % 100 === 7 ? "opal " : ""}${text(random)}`,
          ),
          vector: null,
        })),
      });
    });
    const rangeOf = (db: Database.Database, userId: string) => {
      const [lo, hi] = db
        .prepare("SELECT min(rowid), max(rowid) FROM memories WHERE user_id = ? AND kind = 'message'")
        .raw()
        .get(userId) as [number, number];
      return { range: { lo, hi }, rows: hi - lo + 1 };
    };

    it("remembers a term in more than WIDESPREAD_ROWS rows without making it common", () => {
      const terms = new CommonTerms(reference);
      const { range, rows } = rangeOf(reference, "u3");
      const plan = terms.plan(range, rows, terms.indexRows(), ["quartz", "opal", "alice"]);
      expect(exact("quartz", null, "u3").size).toBeGreaterThan(WIDESPREAD_ROWS);
      expect(exact("opal", null, "u3").size).toBeLessThanOrEqual(WIDESPREAD_ROWS);
      expect(exact("quartz", null, "u3").size / rows).toBeLessThanOrEqual(COMMON_SHARE);
      expect([...plan.remembered].sort()).toEqual(["alice", "quartz"]);
      expect([...plan.common]).toEqual(["alice"]);
    });

    it("lists the rows of a widespread term with the whole query's exact BM25, common terms added", async () => {
      const hits = await storage.textSearch(u3, { text: "alice quartz opal", k: 1000 });
      const want = exact("alice quartz opal", null, "u3");
      const listed = [...want.keys()].filter((id) => holds(id, ["quartz", "opal"]));
      expect(hits.map((h) => h.id).sort()).toEqual(listed.sort());
      for (const hit of hits) expect(hit.score).toBeCloseTo(want.get(hit.id) as number, 9);
      for (let i = 1; i < hits.length; i++) {
        expect(hits[i - 1]?.score).toBeGreaterThanOrEqual(hits[i]?.score as number);
      }
    });

    it("forgets the least recently used ranges past its bound, never the one in use, and scores alike", () => {
      const bounded = new CommonTerms(reference, 50);
      const one = rangeOf(reference, "u3");
      const two = rangeOf(reference, "u1");
      const indexRows = bounded.indexRows();
      const first = bounded.scores(one.range, one.rows, indexRows, "quartz");
      expect(bounded.rememberedParts).toBe(20);
      // "alice" is in about half of u1's rows: over the bound alone, so u3's entry goes, u1's stays.
      const alice = bounded.scores(two.range, two.rows, indexRows, "alice");
      expect(alice.offsets.length).toBeGreaterThan(50);
      expect(bounded.rememberedParts).toBe(alice.offsets.length);
      // Scored again after being forgotten: the same parts.
      const again = bounded.scores(one.range, one.rows, indexRows, "quartz");
      expect([...again.scores]).toEqual([...first.scores]);
      expect(bounded.rememberedParts).toBe(20);
    });
  });
});
