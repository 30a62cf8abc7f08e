import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StorageError } from "../../errors/index.js";
import type { MemoryRecord } from "../../model/index.js";
import { migrate, SCHEMA_VERSION } from "./migrations.js";
import { SqliteStorage } from "./sqlite-storage.js";

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-migrations-"));
  file = path.join(dir, "nested", "engram.db");
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const record: MemoryRecord = {
  id: "m1",
  userId: "u1",
  cube: ["user", "u1"],
  agentId: null,
  sessionId: "s1",
  kind: "message",
  tier: "short",
  role: "user",
  name: null,
  text: "the lighthouse keeper waved",
  context: null,
  key: null,
  metadata: { n: 1 },
  status: "ready",
  version: 1,
  validFrom: "2026-01-01T00:00:00.000Z",
  validTo: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  expiredAt: null,
};

describe("migrations", () => {
  it("brings a new database to the current version, and running again changes nothing", () => {
    const db = new Database(":memory:");
    migrate(db);
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    migrate(db);
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(tables).toEqual(
      expect.arrayContaining(["memories", "memories_fts", "history", "edges", "kv", "jobs"]),
    );
    db.close();
  });

  it("reopens an existing file with its data (creating missing folders first)", async () => {
    const first = new SqliteStorage({ path: file });
    await first.write({ userId: "u1" }, { upsert: [{ record, vector: new Float32Array([0.6, 0.8]) }] });
    await first.close();

    const second = new SqliteStorage({ path: file });
    expect(await second.get({ userId: "u1" }, ["m1"])).toEqual([record]);
    expect((await second.getVectors({ userId: "u1" }, ["m1"])).get("m1")).toEqual(
      new Float32Array([0.6, 0.8]),
    );
    expect(
      (await second.textSearch({ userId: "u1" }, { text: "lighthouse", k: 5 })).map((h) => h.id),
    ).toEqual(["m1"]);
    await second.close();
  });

  it("refuses a file written by a newer schema with a clear StorageError", () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    raw.close();
    let thrown: unknown;
    try {
      new SqliteStorage({ path: file });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StorageError);
    const message = (thrown as StorageError).message;
    expect(message).toContain(file);
    expect(message).toContain(`schema version ${SCHEMA_VERSION + 5} is newer`);
    expect(message).toContain("upgrade @engram/core");
    expect((thrown as StorageError).cause).toBeInstanceOf(Error);
  });
});
