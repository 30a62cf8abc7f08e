import type { StoragePort } from "@engram/core";
import { QdrantStorage } from "@engram/core/qdrant";
import { SqliteStorage } from "@engram/core/sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "../qdrant-double/index.js";
import { iso, stored, unit } from "../support/make-record.js";

/** The same memories in both backends: their channels must rank alike and their statistics agree. */
const U = { userId: "u1" };
const TEXTS = [
  "we went kayaking on the fjord last summer",
  "my sister paints watercolours of the harbour",
  "the harbour ferry was late again this morning",
  "I am learning to paint with oils",
  "kayaks need a spray deck in cold water",
  "the lighthouse keeper painted the door white",
  "summer in Bergen is short and rainy",
  "she bought a new kayak paddle",
];
const MEMORIES = TEXTS.map((text, i) =>
  stored(
    { id: `m${i}`, userId: "u1", text, createdAt: iso(i), expiredAt: i === 7 ? iso(20) : null },
    unit(Math.cos(i), Math.sin(i), i % 3, 1),
  ),
);

let double: QdrantDouble;
const ports: StoragePort[] = [];

beforeAll(async () => {
  double = await startQdrantDouble();
  ports.push(
    new SqliteStorage({ path: ":memory:" }),
    new QdrantStorage({ url: double.url, collectionPrefix: "parity_" }),
  );
  for (const port of ports) await port.write(U, { upsert: MEMORIES });
});

afterAll(async () => {
  for (const port of ports) await port.close();
  await double.close();
});

const ids = (hits: readonly { id: string }[]) => hits.map((h) => h.id);

describe("SQLite and Qdrant agree", () => {
  it("on the vector channel's ranking, scores and whole-scope statistics", async () => {
    const query = { vector: unit(1, 0.5, 1, 1), k: 5, filter: { current: true } };
    const [sqlite, qdrant] = await Promise.all(ports.map((p) => p.vectorSearch(U, query)));
    expect(ids(qdrant ?? [])).toEqual(ids(sqlite ?? []));
    for (const [i, hit] of (qdrant ?? []).entries()) {
      expect(hit.score).toBeCloseTo(sqlite?.[i]?.score ?? Number.NaN, 5);
    }
    const [a, b] = await Promise.all(ports.map((p) => p.vectorStats?.(U, query)));
    expect(b?.count).toBe(a?.count);
    expect(b?.mean).toBeCloseTo(a?.mean ?? Number.NaN, 5);
    expect(b?.sd).toBeCloseTo(a?.sd ?? Number.NaN, 5);
  });

  it("on which memories the full-text channel finds, through stemming, and its best hit", async () => {
    for (const text of ["kayaking", "painting the harbour", "summer kayak", "lighthouse door"]) {
      const [sqlite, qdrant] = await Promise.all(ports.map((p) => p.textSearch(U, { text, k: 10 })));
      expect([...ids(qdrant ?? [])].sort(), text).toEqual([...ids(sqlite ?? [])].sort());
      expect(qdrant?.[0]?.id, text).toBe(sqlite?.[0]?.id);
    }
  });

  it("on scan pages when many memories share one event time", async () => {
    const T = { userId: "ties" };
    // Twenty memories at one event time, created in an order unrelated to their ids, then one later.
    const tied = Array.from({ length: 20 }, (_, i) =>
      stored({ id: `t${i}`, userId: "ties", validFrom: iso(1), createdAt: iso(10 + ((i * 7) % 20)) }),
    );
    for (const port of ports)
      await port.write(T, { upsert: [...tied, stored({ id: "late", userId: "ties", validFrom: iso(2) })] });
    for (const order of ["asc", "desc"] as const) {
      for (const [limit, offset] of [
        [1, 0],
        [2, 1],
        [3, 3],
        [2, 5],
      ] as const) {
        const [sqlite, qdrant] = await Promise.all(ports.map((p) => p.scan(T, { order, limit, offset })));
        expect(ids(qdrant ?? []), `${order} ${limit}@${offset}`).toEqual(ids(sqlite ?? []));
      }
    }
  });

  it("on scan order with limits, ties on event time included", async () => {
    const [sqlite, qdrant] = await Promise.all(
      ports.map((p) => p.scan(U, { order: "desc", limit: 3, offset: 1 })),
    );
    expect(ids(qdrant ?? [])).toEqual(ids(sqlite ?? []));
  });
});
