import type { StoredMemory } from "@engram/core";
import type { StoragePort } from "@engram/core/storage";
import { expect } from "vitest";
import { iso, stored, unit } from "../records.js";
import { conformanceSpec } from "../spec.js";

/**
 * A scope big enough that a backend may switch from an exact scan to an approximate index (SQLite does
 * from 5,000 vectors). The planted points are far nearer to the query than any random one, so the
 * expected ids are unambiguous for any index worth shipping.
 */
const U = { userId: "u1" };
const SIZE = 6000;
const QUERY = unit(1, 1, 1, 1, 1, 1, 1, 1);

/** Deterministic pseudo-random unit vectors pointing away from QUERY's octant half the time. */
function randomVector(i: number): Float32Array {
  const components = Array.from({ length: 8 }, (_, j) => Math.sin(i * 12.9898 + j * 78.233) * 43758.5453);
  return unit(...components.map((c) => c - Math.floor(c) - 0.5));
}

async function writeLargeScope(port: StoragePort): Promise<void> {
  const memories: StoredMemory[] = Array.from({ length: SIZE }, (_, i) =>
    stored({ id: `r${i}`, userId: "u1", text: `random ${i}` }, randomVector(i)),
  );
  memories.push(
    stored({ id: "target", userId: "u1" }, QUERY),
    stored({ id: "second", userId: "u1" }, unit(1, 1, 1, 1, 1, 1, 1, 0.9)),
    stored({ id: "third", userId: "u1" }, unit(1, 1, 1, 1, 1, 1, 1, 0.8)),
    // Three facts pointing away from the query: a selective filter must still find them all.
    ...[1, 2, 3].map((n) =>
      stored(
        { id: `fact${n}`, userId: "u1", kind: "fact", tier: "long" },
        unit(-1, -1, -1, -1, -1, -1, -1, -n),
      ),
    ),
  );
  await port.write(U, { upsert: memories });
}

const ids = (hits: readonly { id: string }[]) => hits.map((h) => h.id);

export const vectorSearchLarge = conformanceSpec("vectorSearch in a large scope", ({ test }) => {
  test("returns the nearest first, and stays right after deletes and expiry", async (port) => {
    await writeLargeScope(port);
    expect(ids(await port.vectorSearch(U, { vector: QUERY, k: 3 }))).toEqual(["target", "second", "third"]);
    await port.write(U, {
      deleteIds: ["target"],
      upsert: [stored({ id: "second", userId: "u1", expiredAt: iso(1) }, unit(1, 1, 1, 1, 1, 1, 1, 0.9))],
    });
    expect(ids(await port.vectorSearch(U, { vector: QUERY, k: 2 }))).toEqual(["second", "third"]);
    expect(ids(await port.vectorSearch(U, { vector: QUERY, k: 1, filter: { current: true } }))).toEqual([
      "third",
    ]);
  });

  test("a selective filter finds every match, nearest first", async (port) => {
    await writeLargeScope(port);
    await port.vectorSearch(U, { vector: QUERY, k: 1 });
    const hits = await port.vectorSearch(U, { vector: QUERY, k: 10, filter: { kinds: ["fact"] } });
    expect(ids(hits)).toEqual(["fact3", "fact2", "fact1"]);
  });

  test("returns k hits when k is large", async (port) => {
    await writeLargeScope(port);
    const hits = await port.vectorSearch(U, { vector: QUERY, k: 400 });
    expect(hits).toHaveLength(400);
    expect(ids(hits).slice(0, 3)).toEqual(["target", "second", "third"]);
  });
});
