import { EngramError } from "@engram/core";
import { expect } from "vitest";
import { iso, makeEdge, makeRecord, makeVersion, stored, unit } from "../support/make-record.js";
import { describeConformance } from "./describe-conformance.js";

const U = { userId: "u1" };

describeConformance("write", ({ test }) => {
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
