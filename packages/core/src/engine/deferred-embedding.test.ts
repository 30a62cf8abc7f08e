import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hashEmbeddingModel } from "../testing/index.js";
import { storageOf } from "../testing.js";
import { createEngram } from "./create-engram.js";
import type { Engram } from "./engram.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tempEngram(onEmbed: (values: readonly string[]) => void): Promise<Engram> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-later-"));
  const engram = await createEngram({
    path: path.join(dir, "engram.db"),
    background: false,
    tiers: false,
    embedder: hashEmbeddingModel({ onCall: onEmbed }),
  });
  cleanups.push(async () => {
    await engram.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return engram;
}

describe("add with embed: 'later'", () => {
  it("stores the raw turns without calling the embedder, full-text searchable, with a durable embed job", async () => {
    const calls: string[][] = [];
    const engram = await tempEngram((values) => calls.push([...values]));
    const result = await engram.add({
      userId: "u",
      messages: [{ role: "user", content: "My sister Maria lives in Porto." }],
      embed: "later",
    });
    expect(calls).toEqual([]);
    expect(result.status).toBe("pending");
    expect(result.memories.map((m) => m.status)).toEqual(["pending"]);
    const text = await engram.search({ userId: "u", query: "Maria Porto", channels: ["fulltext"] });
    expect(text.map((h) => h.memory.id)).toEqual(result.ids);
    expect(await storageOf(engram).getVectors({ userId: "u" }, result.ids)).toEqual(new Map());
    const jobs = await storageOf(engram).jobs({ userId: "u" }, "queued");
    expect(jobs.map((j) => [j.type, j.payload])).toEqual([["embed", { ids: result.ids }]]);

    expect(await engram.flush()).toMatchObject({ completed: 1, failed: 0 });
    expect(calls).toHaveLength(1);
    const [stored] = await engram.memories.list({ userId: "u" });
    expect(stored?.status).toBe("ready");
    const vector = await engram.search({ userId: "u", query: "Maria Porto", channels: ["vector"] });
    expect(vector.map((h) => h.memory.id)).toEqual(result.ids);
    // Without the option, add embeds before storing, as before.
    const before = calls.length;
    const now = await engram.add({ userId: "u", messages: [{ role: "user", content: "Hello there." }] });
    expect(calls).toHaveLength(before + 1);
    expect(now.status).toBe("ready");
  });
});
