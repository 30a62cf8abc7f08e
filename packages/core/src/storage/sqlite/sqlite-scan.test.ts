import type Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { testRecord } from "../../testing/index.js";
import { ScanCounts } from "./sqlite-scan.js";
import { SqliteStorage } from "./sqlite-storage.js";

const storage = new SqliteStorage({ path: ":memory:" });
const db = (storage as unknown as { db: Database.Database }).db;
afterAll(() => storage.close());

/** A prepare that counts the statements asked of it. */
function counting() {
  const asked: string[] = [];
  const prepare = (sql: string) => {
    asked.push(sql);
    return db.prepare(sql);
  };
  return { asked, prepare };
}

async function add(userId: string, from: number, n: number): Promise<void> {
  const upsert = Array.from({ length: n }, (_, i) => ({
    record: testRecord(`${userId}-${from + i}`, userId, `turn ${from + i}`),
    vector: null,
  }));
  await storage.write({ userId }, { upsert });
}

await add("ana", 0, 10);
await add("bo", 0, 10);

describe("ScanCounts: a user's row counts, remembered until that user's rows change", () => {
  it("counts once per user, kinds and tiers, then answers from memory", () => {
    const counts = new ScanCounts();
    const { asked, prepare } = counting();
    expect(counts.few(prepare, "ana", ["message"], undefined)).toBe(true);
    expect(counts.few(prepare, "ana", ["message"], undefined)).toBe(true);
    expect(asked).toHaveLength(1);
    counts.few(prepare, "ana", ["message"], ["short"]);
    counts.few(prepare, "bo", ["message"], undefined);
    expect(asked).toHaveLength(3);
  });

  it("a write of the user counts again, and sees the rows it added", async () => {
    const counts = new ScanCounts();
    const { asked, prepare } = counting();
    expect(counts.few(prepare, "ana", ["message"], undefined)).toBe(true);
    expect(counts.few(prepare, "bo", ["message"], undefined)).toBe(true);
    // Past the bound of a sorted scan (4,096 rows): the count's answer changes with the write.
    await add("ana", 10, 4100);
    counts.written({ userId: "ana", removed: [], written: [], reindexed: [], edges: false });
    expect(counts.few(prepare, "ana", ["message"], undefined)).toBe(false);
    expect(counts.few(prepare, "bo", ["message"], undefined)).toBe(true);
    // Only ana was counted again: bo's rows did not change.
    expect(asked).toHaveLength(3);
  });

  it("another connection's write forgets every user; a forgotten user forgets only theirs", () => {
    const counts = new ScanCounts();
    const { asked, prepare } = counting();
    counts.few(prepare, "ana", ["message"], undefined);
    counts.few(prepare, "bo", ["message"], undefined);
    counts.drop("bo");
    counts.few(prepare, "ana", ["message"], undefined);
    counts.few(prepare, "bo", ["message"], undefined);
    expect(asked).toHaveLength(3);
    counts.drop();
    counts.few(prepare, "ana", ["message"], undefined);
    counts.few(prepare, "bo", ["message"], undefined);
    expect(asked).toHaveLength(5);
  });

  it("the store's scans answer the same on either side of the bound", async () => {
    const scan = (userId: string) =>
      storage.scan({ userId }, { filter: { kinds: ["message"], current: true }, order: "desc", limit: 3 });
    expect((await scan("ana")).map((r) => r.id)).toEqual(["ana-4109", "ana-4108", "ana-4107"]);
    await add("ana", 4110, 1);
    expect((await scan("ana")).map((r) => r.id)).toEqual(["ana-4110", "ana-4109", "ana-4108"]);
    expect((await scan("bo")).map((r) => r.id)).toEqual(["bo-9", "bo-8", "bo-7"]);
  });
});
