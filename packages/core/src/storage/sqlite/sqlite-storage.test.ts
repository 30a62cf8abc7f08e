import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ClosedError, ScopeError, StorageError } from "../../errors/index.js";
import type { MemoryKind, StoredMemory } from "../../model/index.js";
import { normalize } from "../../model/index.js";
import { testRecord } from "../../testing/index.js";
import { SqliteStorage } from "./sqlite-storage.js";

let dir: string;
let file: string;
const open: SqliteStorage[] = [];

function store(): SqliteStorage {
  const s = new SqliteStorage({ path: file, durability: "normal" });
  open.push(s);
  return s;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-sqlite-"));
  file = path.join(dir, "engram.db");
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function memory(id: string, userId: string, text: string, vector: number[] | null = null): StoredMemory {
  return {
    record: testRecord(id, userId, text, { role: "user" }),
    vector: vector ? normalize(vector) : null,
  };
}

const u1 = { userId: "u1" };

describe("SqliteStorage connection settings", () => {
  it("uses WAL journaling and secure_delete", () => {
    const s = store();
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    raw.close();
    // secure_delete is per connection, so read it on the store's own connection.
    const db = (s as unknown as { db: Database.Database }).db;
    expect(db.pragma("secure_delete", { simple: true })).toBe(1);
  });

  it("erases a deleted or edited memory's terms from the full-text index at once, even after a batch of derived text left erasing off", async () => {
    const s = store();
    const filler = Array.from({ length: 50 }, (_, i) =>
      memory(`f${i}`, "u1", `filler note ${i} about boats`),
    );
    await s.write(u1, {
      upsert: [...filler, memory("m1", "u1", "zephyrquill sings"), memory("m2", "u1", "marmalodon hums")],
    });
    await s.write(u1, { upsert: [memory("seg", "u1", "summary of gondolapixie")] });
    const indexed = (term: string) => {
      const raw = new Database(file, { readonly: true });
      try {
        const blocks = raw.prepare("SELECT block FROM memories_fts_data").pluck().all() as Buffer[];
        return blocks.some((b) => b.includes(Buffer.from(term)));
      } finally {
        raw.close();
      }
    };
    // Inner parts of the words: the index stores stems, each after the prefix it shares with the term before.
    expect(["ephyrqui", "armalod", "ondolapix"].map(indexed)).toEqual([true, true, true]);
    // Derived text (a segment summary rewritten by tier work) may keep its old terms until a merge...
    await s.write(u1, { upsert: [memory("seg", "u1", "summary of something else")], derivedText: true });
    expect(await s.textSearch(u1, { text: "gondolapixie", k: 5 })).toEqual([]);
    // ...but a user's deletion and edit erase theirs at once.
    await s.write(u1, { deleteIds: ["m1"] });
    await s.write(u1, { upsert: [memory("m2", "u1", "edited away")] });
    expect(indexed("ephyrqui")).toBe(false);
    expect(indexed("armalod")).toBe(false);
  });

  it("leaves no byte of a forgotten user's text in the database files", async () => {
    const s = store();
    await s.write(u1, {
      upsert: [
        memory("m1", "u1", "zanzibarquokka sings at dawn", [1, 0]),
        memory("m2", "u1", "plain words", [0, 1]),
      ],
      history: [
        {
          memoryId: "m1",
          userId: "u1",
          version: 1,
          event: "create",
          text: "zanzibarquokka",
          metadata: {},
          at: "2026-01-01T00:00:00.000Z",
        },
      ],
    });
    await s.write({ userId: "u2" }, { upsert: [memory("m3", "u2", "other user keeps this", [1, 1])] });
    const bytes = () =>
      fs
        .readdirSync(dir)
        .map((f) => fs.readFileSync(path.join(dir, f)).toString("latin1"))
        .join("");
    expect(bytes()).toContain("zanzibarquokka");
    await s.forgetUser(u1);
    expect(bytes()).not.toContain("zanzibarquokka");
    expect(await s.get({ userId: "u2" }, ["m3"])).toHaveLength(1);
  });
});

describe("SqliteStorage across connections", () => {
  it("sees another connection's writes in vectorSearch (data_version invalidates the cache)", async () => {
    const writer = store();
    const reader = store();
    await writer.write(u1, { upsert: [memory("m1", "u1", "one", [1, 0, 0])] });
    const query = normalize([0, 1, 0]);
    expect((await reader.vectorSearch(u1, { vector: query, k: 5 })).map((h) => h.id)).toEqual(["m1"]);

    await writer.write(u1, { upsert: [memory("m2", "u1", "two", [0, 1, 0])] });
    expect((await reader.vectorSearch(u1, { vector: query, k: 5 })).map((h) => h.id)).toEqual(["m2", "m1"]);

    await writer.write(u1, { deleteIds: ["m2"] });
    expect((await reader.vectorSearch(u1, { vector: query, k: 5 })).map((h) => h.id)).toEqual(["m1"]);
  });

  it("reads vectors from the loaded set as the file holds them, after this and another connection wrote", async () => {
    const writer = store();
    const reader = store();
    await writer.write(u1, {
      upsert: [memory("m1", "u1", "one", [1, 0, 0]), memory("m2", "u1", "two", [0, 1, 0])],
    });
    await reader.vectorSearch(u1, { vector: normalize([1, 0, 0]), k: 5 }); // loads u1's vectors
    const read = async () =>
      Object.fromEntries(
        [...(await reader.getVectors(u1, ["m1", "m2", "m3"]))].map(([id, v]) => [id, [...v]]),
      );
    expect(await read()).toEqual({ m1: [...normalize([1, 0, 0])], m2: [...normalize([0, 1, 0])] });
    // A copy: changing it does not change the store's vector.
    const [copy] = (await reader.getVectors(u1, ["m1"])).values();
    copy?.fill(0);
    expect((await read()).m1).toEqual([...normalize([1, 0, 0])]);
    await writer.write(u1, {
      upsert: [memory("m1", "u1", "one", [0, 0, 1]), memory("m3", "u1", "three", [0, 1, 1])],
    });
    await writer.write(u1, { deleteIds: ["m2"] });
    expect(await read()).toEqual({ m1: [...normalize([0, 0, 1])], m3: [...normalize([0, 1, 1])] });
    await reader.write(u1, { upsert: [memory("m3", "u1", "three", null)] });
    expect(await read()).toEqual({ m1: [...normalize([0, 0, 1])] });
  });

  it("finds rows another connection wrote in a new kind block, and rows written after a deleted last row", async () => {
    const writer = store();
    const reader = store();
    await writer.write(u1, { upsert: [memory("m1", "u1", "quince orchard")] });
    const ids = async (kinds?: MemoryKind[]) =>
      (await reader.textSearch(u1, { text: "quince", k: 10, ...(kinds ? { filter: { kinds } } : {}) }))
        .map((h) => h.id)
        .sort();
    const scanned = async () => (await reader.scan(u1, { filter: { kinds: ["fact"] } })).map((r) => r.id);
    expect(await ids()).toEqual(["m1"]); // the reader remembers u1's blocks and their last rows
    expect(await scanned()).toEqual([]);
    const fact = memory("f1", "u1", "quince jam");
    await writer.write(u1, { upsert: [{ ...fact, record: { ...fact.record, kind: "fact" } }] });
    expect(await ids()).toEqual(["f1", "m1"]);
    expect(await ids(["fact"])).toEqual(["f1"]);
    expect(await scanned()).toEqual(["f1"]);
    // The writer deletes its last message and writes another, which takes the same rowid.
    await writer.write(u1, { upsert: [memory("m2", "u1", "quince tart")] });
    expect(await ids(["message"])).toEqual(["m1", "m2"]);
    await writer.write(u1, { deleteIds: ["m2"] });
    await writer.write(u1, { upsert: [memory("m3", "u1", "quince pie")] });
    expect(await ids(["message"])).toEqual(["m1", "m3"]);
  });

  it("sees the edges another connection wrote into targets it read before", async () => {
    const writer = store();
    const reader = store();
    const edge = (from: string, createdAt: string) => ({
      userId: "u1",
      from,
      to: "seg",
      type: "part_of" as const,
      createdAt,
    });
    await writer.write(u1, {
      upsert: [memory("p1", "u1", "one"), memory("p2", "u1", "two"), memory("seg", "u1", "segment")],
      edges: [edge("p2", "2026-01-02T00:00:00.000Z")],
    });
    const members = async () => (await reader.edges(u1, { to: ["seg"], type: "part_of" })).map((e) => e.from);
    expect(await members()).toEqual(["p2"]);
    await writer.write(u1, { edges: [edge("p1", "2026-01-01T00:00:00.000Z")] });
    expect(await members()).toEqual(["p1", "p2"]);
    await writer.write(u1, { deleteIds: ["p2"] });
    expect(await members()).toEqual(["p1"]);
  });

  it("reads records as written by this and another connection, frozen, and only to their own user", async () => {
    const writer = store();
    const reader = store();
    await writer.write(u1, { upsert: [memory("m1", "u1", "first text"), memory("m2", "u1", "second")] });
    const texts = async () => (await reader.get(u1, ["m2", "m1"])).map((r) => r.text);
    const scanned = async () => (await reader.scan(u1, {})).map((r) => r.text);
    expect(await texts()).toEqual(["second", "first text"]); // remembered from here on
    expect(await scanned()).toEqual(["first text", "second"]);
    const [first] = await reader.get(u1, ["m1"]);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first?.metadata)).toBe(true);
    expect(await reader.get({ userId: "u2" }, ["m1"])).toEqual([]);
    expect(await reader.scan({ userId: "u2" }, {})).toEqual([]);
    await writer.write(u1, { upsert: [memory("m1", "u1", "first text, edited")] });
    expect(await texts()).toEqual(["second", "first text, edited"]);
    await writer.write(u1, { deleteIds: ["m2"] });
    expect(await texts()).toEqual(["first text, edited"]);
    await reader.write(u1, { upsert: [memory("m1", "u1", "edited here")] });
    expect(await texts()).toEqual(["edited here"]);
    expect(await scanned()).toEqual(["edited here"]);
    await reader.write(u1, { deleteIds: ["m1"] });
    expect(await texts()).toEqual([]);
  });

  it("keeps its own cache current without reloading", async () => {
    const s = store();
    await s.write(u1, { upsert: [memory("m1", "u1", "one", [1, 0])] });
    const query = normalize([0, 1]);
    expect(await s.vectorSearch(u1, { vector: query, k: 5 })).toHaveLength(1);
    await s.write(u1, { upsert: [memory("m2", "u1", "two", [0, 1]), memory("m1", "u1", "one", null)] });
    expect((await s.vectorSearch(u1, { vector: query, k: 5 })).map((h) => h.id)).toEqual(["m2"]);
  });
});

describe("SqliteStorage scope and errors", () => {
  it("refuses unscoped calls", async () => {
    const s = store();
    const blank = { userId: " " };
    await expect(s.get(blank, ["m1"])).rejects.toBeInstanceOf(ScopeError);
    await expect(s.scan(undefined as unknown as typeof u1)).rejects.toBeInstanceOf(ScopeError);
    await expect(s.write({} as typeof u1, {})).rejects.toBeInstanceOf(ScopeError);
    await expect(s.textSearch(blank, { text: "x", k: 1 })).rejects.toBeInstanceOf(ScopeError);
    await expect(s.vectorSearch(blank, { vector: normalize([1]), k: 1 })).rejects.toBeInstanceOf(ScopeError);
    await expect(s.forgetUser(blank)).rejects.toBeInstanceOf(ScopeError);
  });

  it("refuses a batch holding another user's data or reusing their id", async () => {
    const s = store();
    await expect(s.write(u1, { upsert: [memory("m1", "u2", "x")] })).rejects.toBeInstanceOf(ScopeError);
    await s.write({ userId: "u2" }, { upsert: [memory("m1", "u2", "x")] });
    await expect(s.write(u1, { upsert: [memory("m1", "u1", "x")] })).rejects.toThrow(/taken by another user/);
    // Deleting another user's id is a no-op, not a leak.
    await s.write(u1, { deleteIds: ["m1"] });
    expect(await s.get({ userId: "u2" }, ["m1"])).toHaveLength(1);
    expect(await s.get(u1, ["m1"])).toEqual([]);
  });

  it("wraps driver errors in StorageError and rolls the batch back", async () => {
    const s = store();
    const keyed = (id: string) => {
      const m = memory(id, "u1", `text ${id}`);
      return { ...m, record: { ...m.record, kind: "item" as const, key: "same-key" } };
    };
    const error = await s.write(u1, { upsert: [keyed("a"), keyed("b")] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).message).toMatch(/^sqlite\.write failed on /);
    expect((error as StorageError).cause).toBeInstanceOf(Error);
    expect(await s.count(u1)).toBe(0);
  });

  it("throws ClosedError after close, and close is idempotent", async () => {
    const s = store();
    await s.close();
    await s.close();
    await expect(s.get(u1, ["m1"])).rejects.toBeInstanceOf(ClosedError);
    await expect(s.users()).rejects.toBeInstanceOf(ClosedError);
    await expect(s.claimJobs({ now: new Date().toISOString(), limit: 1, leaseMs: 1 })).rejects.toBeInstanceOf(
      ClosedError,
    );
  });
});
