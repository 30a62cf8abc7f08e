import { EngramError } from "@engram/core";
import type { StoragePort, WriteBatch } from "@engram/core/storage";
import { expect } from "vitest";
import { makeEdge, makeVersion, stored, unit } from "../records.js";
import { conformanceSpec } from "../spec.js";

const A = { userId: "alice" };

/** Alice has a1 (key "city", with a vector, a kv entry); Bob has b1. */
async function writeInitial(port: StoragePort): Promise<void> {
  await port.write(A, {
    upsert: [
      stored(
        { id: "a1", userId: "alice", kind: "fact", key: "city", text: "alice lives in Oslo" },
        unit(1, 0, 0, 0),
      ),
    ],
    kvPut: [{ namespace: ["n"], key: "keep", value: "1" }],
  });
  await port.write({ userId: "bob" }, { upsert: [stored({ id: "b1", userId: "bob" })] });
  // Load any search caches first, so a failed batch cannot hide behind a cold cache.
  await port.vectorSearch(A, { vector: unit(1, 0, 0, 0), k: 5 });
  await port.textSearch(A, { text: "oslo", k: 5 });
}

/** A batch whose every part is valid except one upsert in the middle, which fails inside the backend. */
function failingBatch(culprit: WriteBatch["upsert"]): WriteBatch {
  return {
    deleteIds: ["a1"],
    upsert: [
      stored({ id: "a2", userId: "alice", text: "alice adopted a ferret" }, unit(0, 1, 0, 0)),
      ...(culprit ?? []),
      stored({ id: "a3", userId: "alice", text: "alice bought a ferret cage" }, unit(0, 0, 1, 0)),
    ],
    history: [makeVersion({ memoryId: "a2", userId: "alice", version: 1 })],
    edges: [makeEdge("alice", "a2", "a3")],
    jobs: [{ id: "job-a", type: "embed", payload: {}, runAt: "2026-01-01T00:00:00.000Z" }],
    kvPut: [{ namespace: ["n"], key: "new", value: "2" }],
    kvDelete: [{ namespace: ["n"], key: "keep" }],
  };
}

async function expectUnchanged(port: StoragePort): Promise<void> {
  expect((await port.scan(A)).map((r) => r.id)).toEqual(["a1"]);
  expect(await port.history(A, "a2")).toEqual([]);
  expect(await port.edges(A, {})).toEqual([]);
  expect(await port.jobs(A)).toEqual([]);
  expect(await port.kvGet(A, ["n"], "keep")).not.toBeNull();
  expect(await port.kvGet(A, ["n"], "new")).toBeNull();
  expect((await port.textSearch(A, { text: "ferret oslo", k: 5 })).map((h) => h.id)).toEqual(["a1"]);
  expect((await port.vectorSearch(A, { vector: unit(0, 1, 0, 0), k: 5 })).map((h) => h.id)).toEqual(["a1"]);
  expect(await port.stats(A)).toMatchObject({
    memories: 1,
    vectors: 1,
    history: 0,
    edges: 0,
    kv: 1,
    jobs: {},
  });
}

export const atomicity = conformanceSpec("atomicity", ({ test }) => {
  test("a batch that fails midway on another user's id leaves nothing behind", async (port) => {
    await writeInitial(port);
    const culprit = [stored({ id: "b1", userId: "alice", text: "alice ferret" })];
    const error = await port.write(A, failingBatch(culprit)).catch((e: unknown) => e);
    expect(EngramError.isInstance(error)).toBe(true);
    await expectUnchanged(port);
    expect(await port.get({ userId: "bob" }, ["b1"])).toHaveLength(1);
  });

  test("a batch that fails midway on a duplicate key leaves nothing behind", async (port) => {
    await writeInitial(port);
    // Two new facts share the key "pet": the second clashes after earlier parts of the batch were applied.
    const culprit = [
      stored({ id: "c1", userId: "alice", kind: "fact", key: "pet" }),
      stored({ id: "c2", userId: "alice", kind: "fact", key: "pet" }),
    ];
    const error = await port.write(A, failingBatch(culprit)).catch((e: unknown) => e);
    expect(EngramError.isInstance(error)).toBe(true);
    await expectUnchanged(port);
  });

  test("the store accepts writes after a failed batch", async (port) => {
    await writeInitial(port);
    await port.write(A, failingBatch([stored({ id: "b1", userId: "alice" })])).catch(() => undefined);
    await port.write(A, failingBatch([]));
    expect((await port.scan(A)).map((r) => r.id).sort()).toEqual(["a2", "a3"]);
    expect((await port.vectorSearch(A, { vector: unit(0, 1, 0, 0), k: 1 })).map((h) => h.id)).toEqual(["a2"]);
    expect(await port.kvGet(A, ["n"], "keep")).toBeNull();
    expect(await port.kvGet(A, ["n"], "new")).not.toBeNull();
  });
});
