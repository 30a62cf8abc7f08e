import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sequentialIds } from "../model/index.js";
import { failingEmbeddingModel, hashEmbeddingModel } from "../testing/index.js";
import { createEngram, type EngramOptions } from "./create-engram.js";
import type { Engram } from "./engram.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tempEngram(options: EngramOptions = {}): Promise<Engram> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-facets-"));
  const engram = await createEngram({
    background: false,
    path: path.join(dir, "engram.db"),
    embedder: hashEmbeddingModel(),
    ids: sequentialIds(),
    ...options,
  });
  cleanups.push(async () => {
    await engram.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return engram;
}

describe("engram.kv", () => {
  it("puts, lists by prefix, gets and deletes within one user's space", async () => {
    const engram = await tempEngram();
    await engram.kv.write(
      { userId: "u1" },
      {
        put: [
          { namespace: ["app", "a"], key: "k1", value: "1" },
          { namespace: ["app", ""], key: "k2", value: "2" },
        ],
      },
    );
    expect((await engram.kv.get({ userId: "u1" }, ["app", "a"], "k1"))?.value).toBe("1");
    expect((await engram.kv.list({ userId: "u1" }, { prefix: ["app"] })).map((e) => e.key).sort()).toEqual([
      "k1",
      "k2",
    ]);
    expect(await engram.kv.get({ userId: "u2" }, ["app", "a"], "k1")).toBeNull();
    await engram.kv.write({ userId: "u1" }, { delete: [{ namespace: ["app", "a"], key: "k1" }] });
    expect(await engram.kv.get({ userId: "u1" }, ["app", "a"], "k1")).toBeNull();
  });

  it("refuses an unscoped call with a ScopeError and a bad namespace with a ValidationError", async () => {
    const engram = await tempEngram();
    await expect(engram.kv.list({ userId: "" })).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
    await expect(
      engram.kv.write({ userId: "u1" }, { put: [{ namespace: [], key: "k", value: "v" }] }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });

  it("goes with the user on forget", async () => {
    const engram = await tempEngram();
    await engram.kv.write({ userId: "u1" }, { put: [{ namespace: ["n"], key: "k", value: "v" }] });
    await engram.forget({ userId: "u1" });
    expect(await engram.kv.list({ userId: "u1" })).toEqual([]);
  });
});

describe("engram.items", () => {
  const cube = ["memories", "u1"];

  it("stores versions with history, lists live cubes and owners, deletes atomically", async () => {
    const engram = await tempEngram();
    await engram.items.write(
      { userId: "u1" },
      { put: [{ cube, key: "color", value: { c: "red" }, text: "red" }] },
    );
    await engram.items.write(
      { userId: "u1" },
      { put: [{ cube, key: "color", value: { c: "blue" }, text: "blue" }] },
    );
    const item = await engram.items.get({ userId: "u1" }, cube, "color");
    expect(item).toMatchObject({
      kind: "item",
      text: "blue",
      version: 2,
      metadata: { value: { c: "blue" } },
    });
    const history = await engram.memories.history({ userId: "u1", id: item?.id ?? "" });
    expect(history.map((h) => h.text)).toEqual(["red", "blue"]);
    expect(await engram.items.cubes({ userId: "u1" }, { live: true })).toEqual([cube]);
    expect(await engram.items.owners()).toEqual(["u1"]);
    const found = await engram.search({ userId: "u1", query: "blue", kinds: ["item"] });
    expect(found[0]?.memory.id).toBe(item?.id);
    await engram.items.write({ userId: "u1" }, { delete: [{ cube, key: "color" }] });
    expect(await engram.items.get({ userId: "u1" }, cube, "color")).toBeNull();
    expect(await engram.items.cubes({ userId: "u1" }, { live: true })).toEqual([]);
  });

  it("keeps an item without text unembedded, and queues the embedding when the model fails", async () => {
    const failing = await tempEngram({ embedder: failingEmbeddingModel() });
    await failing.items.write(
      { userId: "u1" },
      { put: [{ cube, key: "k", value: { a: 1 }, text: "hello" }] },
    );
    expect((await failing.items.get({ userId: "u1" }, cube, "k"))?.status).toBe("pending");
    expect((await failing.jobs({ userId: "u1", status: "queued" })).map((j) => j.type)).toEqual(["embed"]);
    const engram = await tempEngram();
    await engram.items.write({ userId: "u1" }, { put: [{ cube, key: "raw", value: { a: 1 }, text: "" }] });
    expect(await engram.items.get({ userId: "u1" }, cube, "raw")).toMatchObject({
      text: '{"a":1}',
      metadata: { indexed: false },
    });
  });
});
