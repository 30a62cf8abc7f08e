import { EngramError, type Scope } from "@engram/core";
import type { StoragePort } from "@engram/core/storage";
import { expect } from "vitest";
import { makeEdge, makeVersion, stored, unit } from "../records.js";
import { conformanceSpec } from "../spec.js";

const A = { userId: "alice" };
const B = { userId: "bob" };
const VECTOR = unit(0.3, 0.1, 0.9, 0.2);

/** Every scoped call of the port, made with the given (bad) scope. */
const SCOPED_CALLS: Record<string, (port: StoragePort, scope: Scope) => Promise<unknown>> = {
  write: (p, s) => p.write(s, { upsert: [stored({ id: "x", userId: "alice" })] }),
  get: (p, s) => p.get(s, ["b1"]),
  getVectors: (p, s) => p.getVectors(s, ["b1"]),
  scan: (p, s) => p.scan(s),
  count: (p, s) => p.count(s),
  textSearch: (p, s) => p.textSearch(s, { text: "zeppelin", k: 5 }),
  vectorSearch: (p, s) => p.vectorSearch(s, { vector: VECTOR, k: 5 }),
  history: (p, s) => p.history(s, "b1"),
  edges: (p, s) => p.edges(s, {}),
  kvGet: (p, s) => p.kvGet(s, ["n"], "k"),
  kvList: (p, s) => p.kvList(s),
  jobs: (p, s) => p.jobs(s),
  forgetUser: (p, s) => p.forgetUser(s),
  stats: (p, s) => p.stats(s),
};

const BAD_SCOPES: Record<string, unknown> = {
  "no scope": undefined,
  "an empty object": {},
  "an empty userId": { userId: "" },
  "a blank userId": { userId: "   " },
  "a non-string userId": { userId: 42 },
};

/** Bob's state: a memory with a vector, history, an edge, a kv entry and a job. */
async function writeBob(port: StoragePort): Promise<void> {
  await port.write(B, {
    upsert: [
      stored({ id: "b1", userId: "bob", text: "bob rides a zeppelin" }, VECTOR),
      stored({ id: "b2", userId: "bob" }),
    ],
    history: [makeVersion({ memoryId: "b1", userId: "bob", version: 1 })],
    edges: [makeEdge("bob", "b1", "b2")],
    kvPut: [{ namespace: ["n"], key: "k", value: "bob's" }],
    jobs: [{ id: "bob-job", type: "embed", payload: {}, runAt: "2026-01-01T00:00:00.000Z" }],
  });
}

async function rejection(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => new Error("expected a rejection, but the call resolved"),
    (error: unknown) => error,
  );
}

export const scope = conformanceSpec("scope enforcement", ({ test }) => {
  for (const [method, call] of Object.entries(SCOPED_CALLS)) {
    test(`${method} refuses an unscoped call with SCOPE_REQUIRED`, async (port) => {
      await writeBob(port);
      for (const [label, scope] of Object.entries(BAD_SCOPES)) {
        // stats() without any argument is the whole-store count; only a malformed scope is refused.
        if (method === "stats" && scope === undefined) continue;
        const error = await rejection(call(port, scope as Scope));
        expect(EngramError.isInstance(error), `${method} with ${label}`).toBe(true);
        expect((error as EngramError).code, `${method} with ${label}`).toBe("SCOPE_REQUIRED");
      }
      expect(await port.count(B)).toBe(2);
      expect(await port.users()).toEqual(["bob"]);
    });
  }

  test("a batch naming another user is refused and writes nothing", async (port) => {
    await writeBob(port);
    const batches = {
      upsert: { upsert: [stored({ id: "a1", userId: "alice" }), stored({ id: "b9", userId: "bob" })] },
      history: {
        upsert: [stored({ id: "a1", userId: "alice" })],
        history: [makeVersion({ memoryId: "b1", userId: "bob", version: 2 })],
      },
      edges: { upsert: [stored({ id: "a1", userId: "alice" })], edges: [makeEdge("bob", "b1", "a1")] },
    };
    for (const [part, batch] of Object.entries(batches)) {
      const error = await rejection(port.write(A, batch));
      expect((error as EngramError).code, part).toBe("SCOPE_REQUIRED");
    }
    expect(await port.users()).toEqual(["bob"]);
    expect(await port.get(B, ["b9"])).toEqual([]);
    expect(await port.history(B, "b1")).toHaveLength(1);
    expect(await port.edges(B, {})).toHaveLength(1);
  });

  test("reading another user's ids, text, vectors, history, edges, kv and jobs returns nothing", async (port) => {
    await writeBob(port);
    await port.write(A, {
      upsert: [stored({ id: "a1", userId: "alice", text: "alice walks" }, unit(1, 0, 0, 0))],
    });
    expect(await port.get(A, ["b1", "b2"])).toEqual([]);
    expect((await port.getVectors(A, ["b1"])).size).toBe(0);
    expect(await port.scan(A, { filter: { ids: ["b1", "b2"] } })).toEqual([]);
    expect(await port.count(A, { ids: ["b1"] })).toBe(0);
    expect(await port.textSearch(A, { text: "zeppelin", k: 5 })).toEqual([]);
    expect((await port.vectorSearch(A, { vector: VECTOR, k: 5 })).map((h) => h.id)).toEqual(["a1"]);
    expect(await port.history(A, "b1")).toEqual([]);
    expect(await port.edges(A, { from: "b1" })).toEqual([]);
    expect(await port.kvGet(A, ["n"], "k")).toBeNull();
    expect(await port.kvList(A)).toEqual([]);
    expect(await port.jobs(A)).toEqual([]);
  });

  test("overwriting another user's memory id is refused and changes nothing", async (port) => {
    await writeBob(port);
    const before = await port.get(B, ["b1"]);
    const error = await rejection(
      port.write(A, { upsert: [stored({ id: "b1", userId: "alice", text: "hijacked" })] }),
    );
    expect(EngramError.isInstance(error)).toBe(true);
    expect(await port.get(B, ["b1"])).toEqual(before);
    expect((await port.textSearch(B, { text: "zeppelin", k: 5 })).map((h) => h.id)).toEqual(["b1"]);
    expect(await port.get(A, ["b1"])).toEqual([]);
    expect(await port.textSearch(A, { text: "hijacked", k: 5 })).toEqual([]);
  });

  test("deleting another user's memory id leaves it in place", async (port) => {
    await writeBob(port);
    await port.write(A, { deleteIds: ["b1"] }).catch(() => undefined);
    expect(await port.get(B, ["b1"])).toHaveLength(1);
    expect(await port.history(B, "b1")).toHaveLength(1);
    expect(await port.edges(B, { from: "b1" })).toHaveLength(1);
  });

  test("history written under another user's memory id leaves that user's history intact", async (port) => {
    await writeBob(port);
    const before = await port.history(B, "b1");
    await port
      .write(A, { history: [makeVersion({ memoryId: "b1", userId: "alice", version: 1 })] })
      .catch(() => undefined);
    expect(await port.history(B, "b1")).toEqual(before);
  });

  test("the same kv namespace and key are separate per user", async (port) => {
    await writeBob(port);
    await port.write(A, { kvPut: [{ namespace: ["n"], key: "k", value: "alice's" }] });
    await port.write(A, { kvDelete: [{ namespace: ["n"], key: "k" }] });
    expect((await port.kvGet(B, ["n"], "k"))?.value).toBe("bob's");
    expect(await port.kvGet(A, ["n"], "k")).toBeNull();
  });
});
