import { afterEach, describe, expect, it } from "vitest";
import { ValidationError } from "../../errors/index.js";
import { testRecord } from "../../testing/index.js";
import { SqliteStorage } from "./sqlite-storage.js";
import type { VectorCache } from "./vector-cache.js";

const DIM = 8;
const USERS = ["ana", "bo", "cy", "di"];

/** A unit vector pointing mostly along one axis, a little along the next. */
function axis(i: number): Float32Array {
  const v = new Float32Array(DIM);
  v[i % DIM] = 0.96;
  v[(i + 1) % DIM] = 0.28;
  return v;
}

async function filled(vectorCacheBytes?: number): Promise<SqliteStorage> {
  const storage = new SqliteStorage({
    path: ":memory:",
    ...(vectorCacheBytes === undefined ? {} : { vectorCacheBytes }),
  });
  for (const userId of USERS) {
    await storage.write(
      { userId },
      {
        upsert: Array.from({ length: 20 }, (_, i) => ({
          record: testRecord(`${userId}-${i}`, userId, `${userId} note ${i}`),
          vector: axis(i),
        })),
      },
    );
  }
  return storage;
}

const cacheOf = (storage: SqliteStorage) => (storage as unknown as { vectors: VectorCache }).vectors;
const loaded = (cache: VectorCache) => [
  ...(cache as unknown as { users: Map<string, unknown> }).users.keys(),
];
const nearest = async (storage: SqliteStorage, userId: string, i: number) =>
  (await storage.vectorSearch({ userId }, { vector: axis(i), k: 3 })).map((h) => h.id);

let open: SqliteStorage | undefined;
afterEach(() => open?.close());

describe("the vectors held in memory are bounded", () => {
  it("the least recently searched users are let go, and searching them again reads them back", async () => {
    // One user's 20 vectors of 8 dims sit in a 64-slot array: 2 KiB. Room for two users.
    const storage = await filled(4096);
    open = storage;
    const cache = cacheOf(storage);
    const expected = new Map<string, string[]>();
    for (const userId of USERS) expected.set(userId, await nearest(storage, userId, 5));
    for (const userId of USERS) expect(expected.get(userId)?.[0]).toBe(`${userId}-5`);
    expect(loaded(cache)).toEqual(["cy", "di"]);
    expect(cache.heldBytes).toBeLessThanOrEqual(4096);

    // A search of a held user makes it the most recent: the next load lets go of the other one.
    await nearest(storage, "cy", 1);
    expect(await nearest(storage, "ana", 5)).toEqual(expected.get("ana"));
    expect(loaded(cache)).toEqual(["cy", "ana"]);
    for (const userId of USERS) expect(await nearest(storage, userId, 5)).toEqual(expected.get(userId));
    expect(cache.heldBytes).toBeLessThanOrEqual(4096);
  });

  it("a write to a user that was let go is seen on its next search", async () => {
    const storage = await filled(2048);
    open = storage;
    await nearest(storage, "ana", 0);
    await nearest(storage, "bo", 0);
    expect(loaded(cacheOf(storage))).toEqual(["bo"]);
    // Along one axis exactly: nearer to that axis than any vector written before.
    const pure = new Float32Array(DIM);
    pure[3] = 1;
    await storage.write(
      { userId: "ana" },
      { upsert: [{ record: testRecord("ana-new", "ana", "ana newest note"), vector: pure }] },
    );
    const hits = await storage.vectorSearch({ userId: "ana" }, { vector: pure, k: 1 });
    expect(hits.map((h) => h.id)).toEqual(["ana-new"]);
  });

  it("0 holds only the user being searched; the default holds every user of a small store", async () => {
    const tight = await filled(0);
    for (const userId of USERS) await nearest(tight, userId, 2);
    expect(loaded(cacheOf(tight))).toEqual(["di"]);
    tight.close();
    const roomy = await filled();
    open = roomy;
    for (const userId of USERS) await nearest(roomy, userId, 2);
    expect(loaded(cacheOf(roomy))).toEqual(USERS);
  });

  it("a bound that is not a whole number of bytes is refused by name", () => {
    for (const bad of [-1, 1.5, Number.NaN, "64MB" as unknown as number]) {
      expect(() => new SqliteStorage({ path: ":memory:", vectorCacheBytes: bad })).toThrow(ValidationError);
    }
    expect(() => new SqliteStorage({ path: ":memory:", vectorCacheBytes: -1 })).toThrow(/vectorCacheBytes/);
  });
});
