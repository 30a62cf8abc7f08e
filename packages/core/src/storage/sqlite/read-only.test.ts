import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createEngram, type Engram } from "../../engine/index.js";
import { EngramError, ReadOnlyError, StorageError } from "../../errors/index.js";
import { hashEmbeddingModel } from "../../testing/index.js";
import { storageOf } from "../../testing.js";
import { SqliteStorage } from "./sqlite-storage.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A closed store holding one user's conversation, tiers processed; returns its path. */
async function filledStore(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "engram-ro-"));
  dirs.push(dir);
  const path = join(dir, "engram.db");
  const engram = await createEngram({ path, embedder: hashEmbeddingModel(), background: false });
  const lines = ["My sister Maria lives in Porto.", "I work as a nurse.", "I love hiking in the Alps."];
  for (const [i, content] of lines.entries()) {
    await engram.add({
      userId: "u",
      sessionId: "s1",
      messages: [{ role: "user", content: `${content} (${i})` }],
    });
  }
  await engram.flush();
  await engram.close();
  return path;
}

const digest = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

async function refused(promise: Promise<unknown>): Promise<ReadOnlyError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ReadOnlyError);
  expect(EngramError.isInstance(error) && error.code).toBe("READ_ONLY");
  return error as ReadOnlyError;
}

describe("a store opened with readonly: true", () => {
  it("answers every read, refuses every write with a ReadOnlyError, and leaves the file as it was", async () => {
    const path = await filledStore();
    const before = digest(path);
    const files = readdirSync(join(path, ".."));
    const engram: Engram = await createEngram({ path, readonly: true, embedder: hashEmbeddingModel() });
    try {
      expect(engram.readOnly).toBe("opened with readonly: true");
      const hits = await engram.search({ userId: "u", query: "sister Porto", kinds: ["message"] });
      expect(hits[0]?.memory.text).toContain("Maria");
      const context = await engram.retrieve({ userId: "u", query: "Where does my sister live?" });
      expect(context.text).toContain("Porto");
      const listed = await engram.memories.list({ userId: "u", kinds: ["message"] });
      expect(listed).toHaveLength(3);
      const id = (listed[0] as { id: string }).id;
      expect(await engram.memories.get({ userId: "u", id })).toMatchObject({ id });
      expect(await engram.memories.history({ userId: "u", id })).toHaveLength(1);
      expect((await engram.stats()).memories).toBeGreaterThanOrEqual(3);
      expect((await engram.export({ userId: "u" })).memories.length).toBeGreaterThanOrEqual(3);
      expect(await engram.users()).toEqual(["u"]);
      await engram.profile({ userId: "u" });

      const error = await refused(engram.add({ userId: "u", messages: [{ role: "user", content: "hi" }] }));
      expect(error.message).toContain("read-only (opened with readonly: true)");
      await refused(engram.memories.update({ userId: "u", id, text: "changed" }));
      await refused(engram.memories.delete({ userId: "u", id }));
      await refused(engram.feedback({ userId: "u", text: "Actually Maria moved to Braga." }));
      await refused(engram.forget({ userId: "u" }));
      await refused(engram.import(await engram.export({ userId: "u" })));
      await refused(engram.flush());
      await refused(storageOf(engram).write({ userId: "u" }, { deleteIds: [id] }));
      await refused(storageOf(engram).claimJobs({ now: new Date().toISOString(), limit: 1, leaseMs: 1000 }));
    } finally {
      await engram.close();
    }
    expect(readdirSync(join(path, ".."))).toEqual(files);
    expect(digest(path)).toBe(before);
  });

  it("reads a WAL another connection is still writing, and sees its later commits", async () => {
    const path = await filledStore();
    const writer = new SqliteStorage({ path });
    const reader = new SqliteStorage({ path, readonly: true });
    try {
      expect(reader.readOnly).toBe("opened with readonly: true");
      await writer.write({ userId: "w" }, { kvPut: [{ namespace: ["n"], key: "k", value: "1" }] });
      expect((await reader.kvGet({ userId: "w" }, ["n"], "k"))?.value).toBe("1");
      await writer.write({ userId: "w" }, { kvPut: [{ namespace: ["n"], key: "k", value: "2" }] });
      expect((await reader.kvGet({ userId: "w" }, ["n"], "k"))?.value).toBe("2");
      await refused(reader.write({ userId: "w" }, { kvDelete: [{ namespace: ["n"], key: "k" }] }));
    } finally {
      await reader.close();
      await writer.close();
    }
  });

  it("refuses a file it would have to migrate or create, with a StorageError that says so", async () => {
    const dir = mkdtempSync(join(tmpdir(), "engram-ro-"));
    dirs.push(dir);
    const missing = join(dir, "missing.db");
    expect(() => new SqliteStorage({ path: missing, readonly: true })).toThrow(StorageError);
    expect(readdirSync(dir)).toEqual([]);
    const old = join(dir, "old.db");
    const raw = new Database(old);
    raw.pragma("journal_mode = WAL");
    raw.exec("CREATE TABLE t (x)");
    raw.close();
    expect(() => new SqliteStorage({ path: old, readonly: true })).toThrow(/needs migrating to version/);
    expect(readdirSync(dir)).toEqual(["old.db"]);
  });
});
