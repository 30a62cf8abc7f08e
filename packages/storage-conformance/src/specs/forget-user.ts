import type { StoragePort } from "@engram/core/storage";
import { expect } from "vitest";
import { makeEdge, makeVersion, stored, unit } from "../records.js";
import { conformanceSpec } from "../spec.js";

const A = { userId: "alice" };
const B = { userId: "bob" };

/** Gives the user two memories (one with a vector), history, an edge, two kv entries and a job. */
async function writeUser(port: StoragePort, userId: string): Promise<void> {
  await port.write(
    { userId },
    {
      upsert: [
        stored({ id: `${userId}-1`, userId, text: `${userId} likes quinces` }, unit(1, 0, 0, 0)),
        stored({ id: `${userId}-2`, userId, text: `${userId} owns a canoe` }),
      ],
      history: [
        makeVersion({ memoryId: `${userId}-1`, userId, version: 1 }),
        makeVersion({ memoryId: `${userId}-2`, userId, version: 1 }),
        makeVersion({ memoryId: `${userId}-2`, userId, version: 2 }),
      ],
      edges: [makeEdge(userId, `${userId}-1`, `${userId}-2`, "next")],
      kvPut: [
        { namespace: ["thread", "t1"], key: "cp", value: "{}" },
        { namespace: ["store"], key: "item", value: "{}" },
      ],
      jobs: [{ id: `${userId}-job`, type: "embed", payload: {}, runAt: "2026-01-01T00:00:00.000Z" }],
    },
  );
}

export const forgetUser = conformanceSpec("forgetUser", ({ test }) => {
  test("removes every record, vector, history row, edge, kv entry and job of the user, and reports them", async (port) => {
    await writeUser(port, "alice");
    await writeUser(port, "bob");
    await port.vectorSearch(A, { vector: unit(1, 0, 0, 0), k: 5 });
    const report = await port.forgetUser(A);
    expect(report).toMatchObject({ memories: 2, history: 3, edges: 1, kv: 2, jobs: 1 });
    // A file backend erases the bytes (or says what is pending); a server backend says it reclaims them.
    expect(report.erasure.state).toBe(port.completeErasure ? "erased" : "delegated");
    if (port.completeErasure) expect(await port.completeErasure(0)).toEqual({ state: "erased" });
    expect(await port.scan(A)).toEqual([]);
    expect(await port.get(A, ["alice-1", "alice-2"])).toEqual([]);
    expect((await port.getVectors(A, ["alice-1"])).size).toBe(0);
    expect(await port.history(A, "alice-2")).toEqual([]);
    expect(await port.edges(A, {})).toEqual([]);
    expect(await port.kvList(A)).toEqual([]);
    expect(await port.jobs(A)).toEqual([]);
    expect(await port.textSearch(A, { text: "quinces canoe", k: 5 })).toEqual([]);
    expect(await port.vectorSearch(A, { vector: unit(1, 0, 0, 0), k: 5 })).toEqual([]);
  });

  test("leaves other users untouched", async (port) => {
    await writeUser(port, "alice");
    await writeUser(port, "bob");
    const before = await port.stats(B);
    await port.forgetUser(A);
    expect(await port.stats(B)).toEqual(before);
    expect((await port.textSearch(B, { text: "quinces", k: 5 })).map((h) => h.id)).toEqual(["bob-1"]);
    expect((await port.vectorSearch(B, { vector: unit(1, 0, 0, 0), k: 5 })).map((h) => h.id)).toEqual([
      "bob-1",
    ]);
    expect(await port.history(B, "bob-2")).toHaveLength(2);
  });

  test("drops the user from users() and leaves its stats empty", async (port) => {
    await writeUser(port, "alice");
    await writeUser(port, "bob");
    await port.forgetUser(A);
    expect(await port.users()).toEqual(["bob"]);
    expect(await port.stats(A)).toMatchObject({
      memories: 0,
      vectors: 0,
      history: 0,
      edges: 0,
      kv: 0,
      jobs: {},
    });
  });

  test("a forgotten user can start over", async (port) => {
    await writeUser(port, "alice");
    await port.forgetUser(A);
    await writeUser(port, "alice");
    expect(await port.count(A)).toBe(2);
    expect((await port.vectorSearch(A, { vector: unit(1, 0, 0, 0), k: 5 })).map((h) => h.id)).toEqual([
      "alice-1",
    ]);
  });

  test("forgetting an unknown user reports nothing removed", async (port) => {
    await writeUser(port, "bob");
    expect(await port.forgetUser({ userId: "nobody" })).toMatchObject({
      memories: 0,
      history: 0,
      edges: 0,
      kv: 0,
      jobs: 0,
    });
    expect(await port.count(B)).toBe(2);
  });
});
