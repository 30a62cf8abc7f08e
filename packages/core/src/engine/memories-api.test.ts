import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NotFoundError, ValidationError } from "../errors/index.js";
import { sequentialIds } from "../model/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import { storageOf } from "../testing.js";
import { createEngram } from "./create-engram.js";
import type { Engram } from "./engram.js";

let dir: string;
let engram: Engram;
let t: number;
const u1 = { userId: "u1" };

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-memories-"));
  t = Date.parse("2026-04-01T00:00:00.000Z");
  engram = await createEngram({
    tiers: false,
    background: false,
    path: path.join(dir, "engram.db"),
    embedder: hashEmbeddingModel(),
    clock: () => {
      t += 60_000;
      return new Date(t);
    },
    ids: sequentialIds(),
  });
  await engram.add({
    ...u1,
    sessionId: "s1",
    messages: [
      { role: "user", content: "I work at the harbour office" },
      { role: "assistant", content: "Sounds busy" },
    ],
  }); // mem_1, mem_2 at 00:01
  await engram.add({
    ...u1,
    sessionId: "s2",
    messages: [{ role: "user", content: "I adopted a cat named Miso" }],
  }); // mem_3
  await engram.add({ userId: "u2", messages: [{ role: "user", content: "u2 private note" }] }); // mem_4
});
afterEach(async () => {
  await engram.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function notFound(promise: Promise<unknown>): Promise<NotFoundError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NotFoundError);
  return error as NotFoundError;
}

describe("memories.get and list", () => {
  it("gets a memory of the user and refuses another user's id", async () => {
    expect((await engram.memories.get({ ...u1, id: "mem_3" })).text).toBe("I adopted a cat named Miso");
    const error = await notFound(engram.memories.get({ ...u1, id: "mem_4" }));
    expect(error.code).toBe("NOT_FOUND");
    expect(error.details).toEqual({ id: "mem_4", userId: "u1" });
    expect(error.message).toMatch(/^memories\.get: no memory mem_4 for user u1; list the user's memories/);
  });

  it("lists newest first by default, with paging and filters", async () => {
    const ids = async (input: Omit<Parameters<Engram["memories"]["list"]>[0], "userId">) =>
      (await engram.memories.list({ ...u1, ...input })).map((m) => m.id);
    expect(await ids({})).toEqual(["mem_3", "mem_2", "mem_1"]);
    expect(await ids({ order: "asc" })).toEqual(["mem_1", "mem_2", "mem_3"]);
    expect(await ids({ limit: 1, offset: 1 })).toEqual(["mem_2"]);
    expect(await ids({ sessionId: "s1" })).toEqual(["mem_2", "mem_1"]);
    expect(await ids({ kinds: ["fact"] })).toEqual([]);
    const error = await engram.memories.list({ ...u1, limit: 0 }).catch((e: unknown) => e);
    expect((error as ValidationError).details.path).toBe("limit");
  });
});

describe("memories.update", () => {
  it("bumps the version, appends history and re-embeds a changed text", async () => {
    const before = (await storageOf(engram).getVectors(u1, ["mem_1"])).get("mem_1");
    const updated = await engram.memories.update({ ...u1, id: "mem_1", text: "I work at the observatory" });
    expect(updated).toMatchObject({
      id: "mem_1",
      version: 2,
      text: "I work at the observatory",
      status: "ready",
    });
    expect(updated.updatedAt).not.toBe(updated.createdAt);
    expect(await engram.memories.get({ ...u1, id: "mem_1" })).toEqual(updated);

    const after = (await storageOf(engram).getVectors(u1, ["mem_1"])).get("mem_1");
    expect(after).toBeDefined();
    expect(after).not.toEqual(before);
    const history = await engram.memories.history({ ...u1, id: "mem_1" });
    expect(history.map((h) => [h.version, h.event, h.text])).toEqual([
      [1, "create", "I work at the harbour office"],
      [2, "update", "I work at the observatory"],
    ]);

    const hits = await engram.search({ ...u1, query: "observatory" });
    expect(hits[0]?.id).toBe("mem_1");
    expect(hits[0]?.channels.vector?.rank).toBe(1);
    const old = await engram.search({ ...u1, query: "harbour", channels: ["fulltext"] });
    expect(old.map((h) => h.id)).not.toContain("mem_1");
  });

  it("keeps the vector when only metadata changes", async () => {
    const before = (await storageOf(engram).getVectors(u1, ["mem_3"])).get("mem_3");
    const updated = await engram.memories.update({ ...u1, id: "mem_3", metadata: { pet: "cat" } });
    expect(updated).toMatchObject({
      version: 2,
      text: "I adopted a cat named Miso",
      metadata: { pet: "cat" },
    });
    expect((await storageOf(engram).getVectors(u1, ["mem_3"])).get("mem_3")).toEqual(before);
    const again = await engram.memories.update({ ...u1, id: "mem_3", metadata: { pet: "cat", age: 2 } });
    expect(again.version).toBe(3);
    expect((await engram.memories.history({ ...u1, id: "mem_3" })).map((h) => h.event)).toEqual([
      "create",
      "update",
      "update",
    ]);
  });

  it("refuses an empty change and another user's memory", async () => {
    const error = await engram.memories.update({ ...u1, id: "mem_1" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/pass text or metadata to change/);
    await notFound(engram.memories.update({ ...u1, id: "mem_4", text: "hijacked" }));
    expect((await engram.memories.get({ userId: "u2", id: "mem_4" })).text).toBe("u2 private note");
  });
});

describe("memories.delete and history", () => {
  it("removes the memory with its vector and history", async () => {
    await engram.memories.update({ ...u1, id: "mem_3", text: "I adopted a cat named Miso and a dog" });
    await engram.memories.delete({ ...u1, id: "mem_3" });
    await notFound(engram.memories.get({ ...u1, id: "mem_3" }));
    await notFound(engram.memories.history({ ...u1, id: "mem_3" }));
    expect(await storageOf(engram).history(u1, "mem_3")).toEqual([]);
    expect((await storageOf(engram).getVectors(u1, ["mem_3"])).size).toBe(0);
    expect(await engram.search({ ...u1, query: "Miso cat", limit: 10 })).not.toContainEqual(
      expect.objectContaining({ id: "mem_3" }),
    );
    const stats = await engram.stats(u1);
    expect(stats).toMatchObject({ memories: 2, vectors: 2, history: 2 });
  });

  it("refuses to delete another user's memory", async () => {
    await notFound(engram.memories.delete({ ...u1, id: "mem_4" }));
    expect(await engram.memories.history({ userId: "u2", id: "mem_4" })).toHaveLength(1);
  });

  it("refuses unknown ids and names missing fields", async () => {
    await notFound(engram.memories.history({ ...u1, id: "mem_99" }));
    const error = await engram.memories
      .get({ id: "mem_1" } as { userId: string; id: string })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/^memories\.get: userId: /);
  });
});
