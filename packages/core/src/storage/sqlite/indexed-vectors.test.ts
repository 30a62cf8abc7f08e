import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StoredMemory } from "../../model/index.js";
import { normalize } from "../../model/index.js";
import { seededRandom, testRecord } from "../../testing/index.js";
import { usearch } from "./index-files.js";
import { SqliteStorage } from "./sqlite-storage.js";
import { DEFAULT_ANN_THRESHOLD } from "./user-vectors.js";

const SIZE = DEFAULT_ANN_THRESHOLD + 500;
const QUERY = normalize([1, 1, 1, 1, 1, 1, 1, 1]);
const NEAR = normalize([1, 1, 1, 1, 1, 1, 1, 0.9]);

let dir: string;
let file: string;
const open: SqliteStorage[] = [];

function store(): SqliteStorage {
  const s = new SqliteStorage({ path: file, durability: "normal" });
  open.push(s);
  return s;
}

async function closeAll(): Promise<void> {
  for (const s of open.splice(0)) await s.close();
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-vindex-"));
  file = path.join(dir, "engram.db");
});
afterEach(async () => {
  await closeAll();
  fs.rmSync(dir, { recursive: true, force: true });
});

function memory(id: string, userId: string, vector: Float32Array): StoredMemory {
  return { record: testRecord(id, userId, `text ${id}`, { role: "user" }), vector };
}

/** Random unit vectors; planted ones at cosine > 0.99 to QUERY are nearer than any of them. */
function randomMemories(userId: string, count: number, seed: number): StoredMemory[] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, (_, i) =>
    memory(`${userId}-r${i}`, userId, normalize(Array.from({ length: 8 }, () => next() - 0.5))),
  );
}

/** The index files beside the store (each with its `.rows`), with their modification times. */
function indexFiles(): Map<string, number> {
  const root = `${file}-vectors`;
  const out = new Map<string, number>();
  if (!fs.existsSync(root)) return out;
  for (const user of fs.readdirSync(root)) {
    for (const name of fs.readdirSync(path.join(root, user))) {
      if (!name.endsWith(".usearch")) {
        expect(name.endsWith(".usearch.rows"), name).toBe(true);
        continue;
      }
      const full = path.join(root, user, name);
      out.set(full, fs.statSync(full).mtimeMs);
    }
  }
  return out;
}

const ids = (hits: readonly { id: string }[]) => hits.map((h) => h.id);
const u1 = { userId: "u1" };
const u2 = { userId: "u2" };

describe.runIf(usearch() !== null)("the persisted vector index", () => {
  it("is saved beside the store and opened again without a rebuild", async () => {
    const a = store();
    await a.write(u1, { upsert: [...randomMemories("u1", SIZE, 1), memory("near", "u1", NEAR)] });
    expect(ids(await a.vectorSearch(u1, { vector: QUERY, k: 1 }))).toEqual(["near"]);
    // A temporary file of a save that died an hour ago is removed by the next save; a fresh one is kept.
    const userDir = path.join(`${file}-vectors`, fs.readdirSync(`${file}-vectors`)[0] ?? "");
    const abandoned = path.join(userDir, ".x.usearch.1.ab.tmp");
    const fresh = path.join(userDir, ".y.usearch.2.cd.tmp");
    fs.writeFileSync(abandoned, "partial");
    fs.writeFileSync(fresh, "partial");
    fs.utimesSync(abandoned, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    await a.write(u1, {
      upsert: randomMemories("u1", 1000, 11).map((m, i) => ({
        ...m,
        record: { ...m.record, id: `more${i}` },
      })),
    });
    expect(ids(await a.vectorSearch(u1, { vector: QUERY, k: 1 }))).toEqual(["near"]);
    expect(fs.existsSync(abandoned)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
    fs.rmSync(fresh);
    await closeAll();
    const saved = indexFiles();
    expect(saved.size).toBe(1);
    const b = store();
    expect(ids(await b.vectorSearch(u1, { vector: QUERY, k: 1 }))).toEqual(["near"]);
    await closeAll();
    // A rebuild would have written a new file; the same one, untouched, was used.
    expect(indexFiles()).toEqual(saved);
  });

  it("finds another connection's acknowledged writes, deletes and expiries on the next search", async () => {
    const a = store();
    const b = store();
    await a.write(u1, { upsert: randomMemories("u1", SIZE, 2) });
    await a.vectorSearch(u1, { vector: QUERY, k: 5 });
    await b.write(u1, { upsert: [memory("near", "u1", NEAR)] });
    expect(ids(await a.vectorSearch(u1, { vector: QUERY, k: 1 }))).toEqual(["near"]);
    const near = memory("near", "u1", NEAR);
    const expired = { ...near, record: { ...near.record, expiredAt: new Date(0).toISOString() } };
    await b.write(u1, { upsert: [expired] });
    expect(ids(await a.vectorSearch(u1, { vector: QUERY, k: 1 }))).toEqual(["near"]);
    expect(ids(await a.vectorSearch(u1, { vector: QUERY, k: 1, filter: { current: true } }))).not.toContain(
      "near",
    );
    await b.write(u1, { deleteIds: ["near"] });
    expect(ids(await a.vectorSearch(u1, { vector: QUERY, k: 3 }))).not.toContain("near");
  });

  it("after a crash between commit and save, detects the file as stale and replays what it lacks", async () => {
    const a = store();
    await a.write(u1, { upsert: randomMemories("u1", SIZE, 3) });
    await a.vectorSearch(u1, { vector: QUERY, k: 1 });
    await closeAll();
    const before = indexFiles();
    // Another process commits and dies before saving the index: only SQLite and its log have the write.
    const raw = new Database(file);
    const crashed = new SqliteStorage({ path: file });
    await crashed.vectorSearch(u1, { vector: QUERY, k: 1 });
    await crashed.write(u1, { upsert: [memory("near", "u1", NEAR)], deleteIds: ["u1-r0"] });
    const logged = raw.prepare("SELECT count(*) FROM vector_log").pluck().get() as number;
    expect(logged).toBeGreaterThan(0);
    raw.close();
    expect(indexFiles()).toEqual(before);
    const b = store();
    const hits = await b.vectorSearch(u1, { vector: QUERY, k: 10 });
    expect(ids(hits)[0]).toBe("near");
    expect((await b.vectorSearch(u1, { vector: QUERY, k: 256 })).map((h) => h.id)).not.toContain("u1-r0");
    await closeAll();
    // The closing store saved the caught-up index; the stale file is gone.
    const after = indexFiles();
    expect(after.size).toBe(1);
    expect([...after.keys()]).not.toEqual([...before.keys()]);
  });

  it("rebuilds an index file that is corrupt, or that does not match the store, instead of trusting it", async () => {
    const a = store();
    await a.write(u1, { upsert: randomMemories("u1", SIZE, 4) });
    await a.vectorSearch(u1, { vector: QUERY, k: 1 });
    await closeAll();
    const [old] = [...indexFiles().keys()] as [string];
    const oldBytes = fs.readFileSync(old);
    const b = store();
    await b.write(u1, { upsert: [memory("near", "u1", NEAR)] });
    await b.vectorSearch(u1, { vector: QUERY, k: 1 });
    await closeAll();
    const [current] = [...indexFiles().keys()] as [string];
    expect(current).not.toBe(old);
    // The file named as current holds an older index (lacking "near"): caught by the open's checks.
    fs.writeFileSync(current, oldBytes);
    const c = store();
    expect(ids(await c.vectorSearch(u1, { vector: QUERY, k: 1 }))).toEqual(["near"]);
    await closeAll();
    // Garbage under the current name: rebuilt too.
    const [rebuilt] = [...indexFiles().keys()] as [string];
    fs.writeFileSync(rebuilt, Buffer.alloc(4096, 7));
    const d = store();
    expect(ids(await d.vectorSearch(u1, { vector: QUERY, k: 1 }))).toEqual(["near"]);
    await closeAll();
    const [repaired] = [...indexFiles().keys()] as [string];
    expect(fs.readFileSync(repaired).equals(Buffer.alloc(4096, 7))).toBe(false);
    // An index without the rows saved beside it: rebuilt too.
    fs.rmSync(`${repaired}.rows`);
    const e = store();
    expect(ids(await e.vectorSearch(u1, { vector: QUERY, k: 1 }))).toEqual(["near"]);
    await closeAll();
    expect(fs.existsSync(`${[...indexFiles().keys()][0]}.rows`)).toBe(true);
  });

  it("keeps users apart, and forgetUser deletes the user's index files", async () => {
    const a = store();
    await a.write(u1, { upsert: [...randomMemories("u1", SIZE, 5), memory("u1-near", "u1", NEAR)] });
    await a.write(u2, { upsert: [...randomMemories("u2", SIZE, 6), memory("u2-near", "u2", QUERY)] });
    const hits1 = await a.vectorSearch(u1, { vector: QUERY, k: 200 });
    const hits2 = await a.vectorSearch(u2, { vector: QUERY, k: 200 });
    expect(hits1.every((h) => h.id.startsWith("u1-"))).toBe(true);
    expect(hits2.every((h) => h.id.startsWith("u2-"))).toBe(true);
    expect(new Set([...indexFiles().keys()].map((f) => path.dirname(f))).size).toBe(2);
    await a.forgetUser(u1);
    const left = [...indexFiles().keys()];
    expect(left).toHaveLength(1);
    expect(await a.vectorSearch(u1, { vector: QUERY, k: 5 })).toEqual([]);
    expect(ids(await a.vectorSearch(u2, { vector: QUERY, k: 1 }))).toEqual(["u2-near"]);
    // u2's file holds none of u1's vectors.
    const u1Vector = Buffer.from(NEAR.buffer);
    expect(fs.readFileSync(left[0] as string).includes(u1Vector)).toBe(false);
  });

  it("a deleted vector's bytes are gone from the index file once it is saved", async () => {
    const marked = Float32Array.from([0.91, 0.13, 0.27, 0.05, 0.19, 0.11, 0.17, 0.07]);
    const a = store();
    await a.write(u1, { upsert: [...randomMemories("u1", SIZE, 7), memory("secret", "u1", marked)] });
    await a.vectorSearch(u1, { vector: QUERY, k: 1 });
    const bytes = Buffer.from(marked.buffer);
    expect(fs.readFileSync([...indexFiles().keys()][0] as string).includes(bytes)).toBe(true);
    await a.write(u1, { deleteIds: ["secret"] });
    await a.vectorSearch(u1, { vector: QUERY, k: 1 });
    await closeAll();
    const files = [...indexFiles().keys()];
    expect(files).toHaveLength(1);
    expect(fs.readFileSync(files[0] as string).includes(bytes)).toBe(false);
  });

  it("a read-only store uses the saved index and replays the log, writing nothing beside the store", async () => {
    const a = store();
    await a.write(u1, { upsert: randomMemories("u1", SIZE, 9) });
    await a.vectorSearch(u1, { vector: QUERY, k: 1 });
    await closeAll();
    const writer = store();
    await writer.write(u1, { upsert: [memory("near", "u1", NEAR)] });
    const saved = indexFiles();
    const reader = new SqliteStorage({ path: file, readonly: true });
    open.push(reader);
    expect(ids(await reader.vectorSearch(u1, { vector: QUERY, k: 1 }))).toEqual(["near"]);
    await writer.write(u1, { deleteIds: ["near"] });
    expect(ids(await reader.vectorSearch(u1, { vector: QUERY, k: 3 }))).not.toContain("near");
    await reader.close();
    expect(indexFiles()).toEqual(saved);
  });

  it("lists at most approximateK through the graph, and k from an exact scan", async () => {
    const a = store();
    await a.write(u1, { upsert: randomMemories("u1", SIZE, 8) });
    const few = await a.vectorSearch(u1, { vector: QUERY, k: 100, approximateK: 30 });
    expect(few).toHaveLength(30);
    expect(await a.vectorStats(u1, { vector: QUERY, k: 100, approximateK: 30 })).toBeNull();
    expect(await a.vectorSearch(u1, { vector: QUERY, k: 300, approximateK: 30 })).toHaveLength(300);
  });
});
