import { EngramError } from "@engram/core";
import { expect } from "vitest";
import { iso, makeEdge, makeRecord, makeVersion, stored, unit } from "../records.js";
import { conformanceSpec } from "../spec.js";

const U = { userId: "u1" };
const ids = (hits: readonly { id: string }[]) => hits.map((h) => h.id);

export const write = conformanceSpec("write", ({ test }) => {
  test("stores a record exactly as given", async (port) => {
    const record = makeRecord({
      id: "m1",
      userId: "u1",
      cube: ["project", "p7", "notes"],
      agentId: "a1",
      sessionId: "s1",
      kind: "fact",
      tier: "long",
      role: null,
      name: "Zoë",
      text: "Zoë moved to Zürich — 🚲 everywhere",
      context: "previous line",
      key: "home-city",
      metadata: { topic: "home", score: 0.5, nested: { list: [1, "two", null] }, flag: false },
      status: "pending",
      version: 3,
      validFrom: iso(10),
      validTo: iso(20),
      createdAt: iso(11),
      updatedAt: iso(12),
      expiredAt: iso(13),
    });
    await port.write(U, { upsert: [{ record, vector: unit(1, 0, 0, 0) }] });
    expect(await port.get(U, ["m1"])).toEqual([record]);
  });

  test("upserting an existing id replaces the record and keeps one copy", async (port) => {
    await port.write(U, { upsert: [stored({ id: "m1", userId: "u1", text: "first draft" })] });
    const next = makeRecord({ id: "m1", userId: "u1", text: "second draft", version: 2, updatedAt: iso(5) });
    await port.write(U, { upsert: [{ record: next, vector: null }] });
    expect(await port.get(U, ["m1"])).toEqual([next]);
    expect(await port.count(U)).toBe(1);
  });

  test("upserting new text replaces what full-text search finds", async (port) => {
    await port.write(U, { upsert: [stored({ id: "m1", userId: "u1", text: "walrus tusk" })] });
    await port.write(U, { upsert: [stored({ id: "m1", userId: "u1", text: "pelican beak" })] });
    expect(await port.textSearch(U, { text: "walrus", k: 5 })).toEqual([]);
    expect((await port.textSearch(U, { text: "pelican", k: 5 })).map((h) => h.id)).toEqual(["m1"]);
  });

  test("upserting with a null vector removes the stored vector", async (port) => {
    await port.write(U, { upsert: [stored({ id: "m1", userId: "u1" }, unit(1, 0, 0, 0))] });
    expect(await port.vectorSearch(U, { vector: unit(1, 0, 0, 0), k: 5 })).toHaveLength(1);
    await port.write(U, { upsert: [stored({ id: "m1", userId: "u1" }, null)] });
    expect((await port.getVectors(U, ["m1"])).size).toBe(0);
    expect(await port.vectorSearch(U, { vector: unit(1, 0, 0, 0), k: 5 })).toEqual([]);
  });

  test("upserting without a vector keeps the stored one, searched with the record's new fields", async (port) => {
    const V = unit(1, 0, 0, 0);
    await port.write(U, { upsert: [stored({ id: "m1", userId: "u1", metadata: { topic: "old" } }, V)] });
    // Searched once first, so a backend that holds vectors in memory has them loaded.
    expect(ids(await port.vectorSearch(U, { vector: V, k: 5, filter: { tiers: ["short"] } }))).toEqual([
      "m1",
    ]);
    const [read] = await port.get(U, ["m1"]);
    if (!read) throw new Error("m1 not stored");
    const moved = { ...read, tier: "mid" as const, metadata: { topic: "new" }, version: 2 };
    await port.write(U, { upsert: [{ record: moved }] });
    expect(await port.get(U, ["m1"])).toEqual([moved]);
    expect((await port.getVectors(U, ["m1"])).get("m1")).toEqual(V);
    expect(await port.vectorSearch(U, { vector: V, k: 5, filter: { tiers: ["short"] } })).toEqual([]);
    expect(ids(await port.vectorSearch(U, { vector: V, k: 5, filter: { tiers: ["mid"] } }))).toEqual(["m1"]);
    const topic = (value: string) => ({ vector: V, k: 5, filter: { metadata: { topic: value } } });
    expect(await port.vectorSearch(U, topic("old"))).toEqual([]);
    expect(ids(await port.vectorSearch(U, topic("new")))).toEqual(["m1"]);
    expect((await port.stats(U)).vectors).toBe(1);
  });

  test("upserting without a vector keeps it through a change of kind", async (port) => {
    const V = unit(0, 1, 0, 0);
    await port.write(U, { upsert: [stored({ id: "m1", userId: "u1" }, V)] });
    expect(ids(await port.vectorSearch(U, { vector: V, k: 5, filter: { kinds: ["message"] } }))).toEqual([
      "m1",
    ]);
    const [read] = await port.get(U, ["m1"]);
    if (!read) throw new Error("m1 not stored");
    await port.write(U, { upsert: [{ record: { ...read, kind: "item" } }] });
    expect((await port.getVectors(U, ["m1"])).get("m1")).toEqual(V);
    expect(await port.vectorSearch(U, { vector: V, k: 5, filter: { kinds: ["message"] } })).toEqual([]);
    expect(ids(await port.vectorSearch(U, { vector: V, k: 5, filter: { kinds: ["item"] } }))).toEqual(["m1"]);
  });

  test("a new record written without a vector has none", async (port) => {
    await port.write(U, {
      upsert: [{ record: makeRecord({ id: "m1", userId: "u1" }) }],
      insert: [{ record: makeRecord({ id: "m2", userId: "u1" }) }],
    });
    expect((await port.getVectors(U, ["m1", "m2"])).size).toBe(0);
    expect(await port.vectorSearch(U, { vector: unit(1, 0, 0, 0), k: 5 })).toEqual([]);
    expect((await port.stats(U)).vectors).toBe(0);
    expect(await port.count(U)).toBe(2);
  });

  test("deleteIds removes the memory with its vector, history and edges", async (port) => {
    await port.write(U, {
      upsert: [
        stored({ id: "m1", userId: "u1", text: "gone soon" }, unit(1, 0, 0, 0)),
        stored({ id: "m2", userId: "u1", text: "stays here" }, unit(0, 1, 0, 0)),
        stored({ id: "m3", userId: "u1", text: "stays too" }, unit(0, 0, 1, 0)),
      ],
      history: [makeVersion({ memoryId: "m1", userId: "u1", version: 1 })],
      edges: [makeEdge("u1", "m1", "m2", "next"), makeEdge("u1", "m3", "m1"), makeEdge("u1", "m2", "m3")],
    });
    await port.write(U, { deleteIds: ["m1"] });
    expect(await port.get(U, ["m1"])).toEqual([]);
    expect((await port.getVectors(U, ["m1"])).size).toBe(0);
    expect(await port.history(U, "m1")).toEqual([]);
    expect(await port.edges(U, {})).toEqual([makeEdge("u1", "m2", "m3")]);
    expect((await port.vectorSearch(U, { vector: unit(1, 0, 0, 0), k: 5 })).map((h) => h.id)).not.toContain(
      "m1",
    );
    expect(await port.textSearch(U, { text: "gone", k: 5 })).toEqual([]);
  });

  test("deleting an unknown id is a no-op", async (port) => {
    await port.write(U, { upsert: [stored({ id: "m1", userId: "u1" })] });
    await port.write(U, { deleteIds: ["nope"] });
    expect(await port.count(U)).toBe(1);
  });

  test("an empty batch changes nothing", async (port) => {
    await port.write(U, {});
    expect(await port.count(U)).toBe(0);
    expect(await port.users()).toEqual([]);
  });

  test("a second memory with the same key in the same cube and kind is rejected", async (port) => {
    await port.write(U, { upsert: [stored({ id: "f1", userId: "u1", kind: "fact", key: "city" })] });
    const error = await port
      .write(U, { upsert: [stored({ id: "f2", userId: "u1", kind: "fact", key: "city" })] })
      .catch((e: unknown) => e);
    expect(EngramError.isInstance(error)).toBe(true);
    expect(await port.get(U, ["f2"])).toEqual([]);
  });

  test("the same key is allowed in another cube or another kind", async (port) => {
    await port.write(U, {
      upsert: [
        stored({ id: "f1", userId: "u1", kind: "fact", key: "city" }),
        stored({ id: "f2", userId: "u1", kind: "fact", key: "city", cube: ["project", "p1"] }),
        stored({ id: "i1", userId: "u1", kind: "item", key: "city" }),
      ],
    });
    expect(await port.count(U, { key: "city" })).toBe(3);
  });

  test("a superseded (expired) memory frees its key for its successor in the same batch", async (port) => {
    await port.write(U, { upsert: [stored({ id: "f1", userId: "u1", kind: "fact", key: "city" })] });
    const [old] = await port.get(U, ["f1"]);
    await port.write(U, {
      upsert: [
        {
          record: { ...(old as NonNullable<typeof old>), expiredAt: "2026-02-01T00:00:00.000Z" },
          vector: null,
        },
        stored({ id: "f2", userId: "u1", kind: "fact", key: "city" }),
      ],
    });
    expect(await port.count(U, { key: "city" })).toBe(2);
    expect((await port.scan(U, { filter: { key: "city", current: true } })).map((r) => r.id)).toEqual(["f2"]);
  });
});
