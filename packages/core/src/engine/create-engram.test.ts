import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { embedderFromModel } from "../ai/index.js";
import { ClosedError, ValidationError } from "../errors/index.js";
import { sequentialIds } from "../model/index.js";
import { hashEmbeddingModel, testRecord } from "../testing/index.js";
import { createEngram, type EngramOptions } from "./create-engram.js";
import { storageOf } from "./engine-backends.js";
import type { Engram } from "./engram.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tempEngram(options: EngramOptions = {}): Promise<Engram> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-create-"));
  const engram = await createEngram({
    tiers: false,
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

/** How many entries the engine's caches hold (its private context, read for this test only). */
const cachedEntries = (engram: Engram) =>
  (engram as unknown as { ctx: { caches: { size: number } } }).ctx.caches.size;

const message = (content: string) => ({ role: "user" as const, content });

describe("createEngram", () => {
  it("adapts a model to an embedder, takes an Embedder (its answers checked), and allows none", async () => {
    expect((await tempEngram()).embedder?.id).toBe("engram-test/hash-64");
    const own = embedderFromModel(hashEmbeddingModel({ dimensions: 8 }));
    const taken = (await tempEngram({ embedder: own })).embedder;
    expect(taken?.id).toBe(own.id);
    expect(await taken?.embed(["rainy harbour"])).toEqual(await own.embed(["rainy harbour"]));

    const textOnly = await tempEngram({ embedder: null });
    expect(textOnly.embedder).toBeNull();
    expect((await textOnly.add({ userId: "u1", messages: [message("rainy harbour")] })).status).toBe("ready");
    expect((await textOnly.stats()).vectors).toBe(0);
    const hits = await textOnly.search({ userId: "u1", query: "harbour" });
    expect(hits.map((h) => Object.keys(h.channels))).toEqual([["fulltext"]]);
  });

  it("takes fusion inside retrieval; fusion at the top level still works, reported as deprecated", async () => {
    const events: unknown[] = [];
    const open = (options: EngramOptions) =>
      createEngram({
        path: ":memory:",
        embedder: hashEmbeddingModel(),
        background: false,
        logger: false,
        onEvent: (e) => events.push(e),
        clock: () => new Date("2026-03-01T00:00:00.000Z"),
        ...options,
      });
    const best = async (options: EngramOptions) => {
      const engram = await open(options);
      try {
        await engram.add({
          userId: "u",
          messages: [{ role: "user", content: "my beagle is named Waffles" }],
        });
        return (await engram.search({ userId: "u", query: "beagle Waffles" }))[0]?.score;
      } finally {
        await engram.close();
      }
    };
    const zscore = await best({});
    const rrf = await best({ retrieval: { fusion: { method: "rrf" } } });
    expect(rrf).not.toBeCloseTo(zscore as number, 3);
    expect(events).toEqual([]);
    expect(await best({ fusion: { method: "rrf" } })).toBe(rrf);
    expect(events).toEqual([
      {
        type: "deprecated",
        at: "2026-03-01T00:00:00.000Z",
        name: "createEngram.fusion",
        use: "createEngram.retrieval.fusion",
      },
    ]);
    await expect(open({ fusion: {}, retrieval: { fusion: {} } })).rejects.toThrow(
      /^createEngram: pass retrieval\.fusion only \(fusion is its old place, deprecated\), not both$/,
    );
    await expect(open({ retrieval: { preset: "chat" as never } })).rejects.toThrow(
      /^createEngram: retrieval\.preset: .*"conversation".*"plain"/,
    );
    await expect(open({ retrieval: { speakerPrior: 1, spekerPrior: 2 } as never })).rejects.toThrow(
      /^createEngram: retrieval: unknown key "spekerPrior"/,
    );
    await (await open({ retrieval: { preset: "plain" } })).close();
  });

  it("validates its options", async () => {
    const error = await createEngram({
      retrieval: { fusion: { method: "mean" as "rrf" } },
      embedder: null,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details.path).toBe("retrieval.fusion.method");
  });

  it("counts memories, vectors, history and users", async () => {
    const engram = await tempEngram();
    await engram.add({ userId: "u1", messages: [message("one"), message("two"), message("three")] });
    await engram.add({ userId: "u2", messages: [message("four"), message("five")] });
    await engram.memories.update({ userId: "u1", id: "mem_1", text: "one, edited" });
    expect(await engram.stats({ userId: "u1" })).toEqual({
      memories: 3,
      byKind: { message: 3 },
      byTier: { short: 3 },
      vectors: 3,
      history: 4,
      edges: 0,
      kv: 0,
      jobs: {},
      users: 1,
    });
    expect(await engram.stats()).toMatchObject({ memories: 5, vectors: 5, history: 6, users: 2 });
    expect(await engram.users()).toEqual(["u1", "u2"]);
    // A context assembly remembers the texts it sanitised and counted; forget clears them.
    expect((await engram.retrieve({ userId: "u1", query: "one" })).text).toContain("one, edited");
    expect(cachedEntries(engram)).toBeGreaterThan(0);

    expect(await engram.forget({ userId: "u1" })).toEqual({
      memories: 3,
      history: 4,
      edges: 0,
      kv: 0,
      jobs: 0,
      erasure: { state: "erased" },
    });
    expect(await engram.users()).toEqual(["u2"]);
    expect(cachedEntries(engram)).toBe(0);
    expect(await engram.stats({ userId: "u1" })).toMatchObject({
      memories: 0,
      vectors: 0,
      history: 0,
      users: 0,
    });
    expect(await engram.search({ userId: "u1", query: "one" })).toEqual([]);
    const error = await engram.stats({ userId: "" }).catch((e: unknown) => e);
    expect((error as ValidationError).details.path).toBe("userId");
  });

  it("keeps its caches to itself: another engine's retrieve and forget leave them as they are", async () => {
    const [a, b] = [await tempEngram(), await tempEngram()];
    await a.add({ userId: "u1", messages: [message("I keep bees on the roof")] });
    await b.add({ userId: "u1", messages: [message("The ferry leaves at nine")] });
    await a.retrieve({ userId: "u1", query: "bees" });
    const held = cachedEntries(a);
    expect(held).toBeGreaterThan(0);
    expect(cachedEntries(b)).toBe(0);
    await b.retrieve({ userId: "u1", query: "ferry" });
    await b.forget({ userId: "u1" });
    expect(cachedEntries(b)).toBe(0);
    expect(cachedEntries(a)).toBe(held);
  });

  it("refuses an llmTimeoutMs that is not a whole number of ms from 1 to a day", async () => {
    for (const llmTimeoutMs of [0, -5, 1.5, Number.NaN, 2 ** 31]) {
      const error = await createEngram({ path: ":memory:", llmTimeoutMs }).catch((e: unknown) => e);
      expect((error as ValidationError).details.path).toBe("llmTimeoutMs");
    }
  });

  it("refuses a profile at an invalid time, or of no input, with a ValidationError (found by fuzzing)", async () => {
    const engram = await tempEngram();
    for (const input of [
      { userId: "u1", at: "2026-02-30T25:61:00Z" },
      { userId: "u1", at: new Date(Number.NaN) },
      null,
    ]) {
      const error = await engram.profile(input as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
    }
    expect(await engram.profile({ userId: "u1", at: "2026-01-01T00:00:00Z" })).toEqual([]);
  });

  it("forgets a user stored under an id with a control character, which every other call refuses", async () => {
    const engram = await tempEngram();
    // Stored as a store written before ids were checked holds it: past the engine, straight into storage.
    const legacy = "alice\nmallory";
    await storageOf(engram).write(
      { userId: legacy },
      {
        upsert: [{ record: testRecord("m1", legacy, "hello"), vector: null }],
        jobs: [{ id: "j1", type: "tiers", payload: {}, runAt: "2026-01-01T00:00:00.000Z" }],
      },
    );
    await engram.add({ userId: "u1", messages: [message("kept")] });
    expect(await engram.users()).toEqual([legacy, "u1"]);
    const refused = await engram.search({ userId: legacy, query: "hello" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).details.path).toBe("userId");
    expect(await engram.forget({ userId: legacy })).toMatchObject({ memories: 1, jobs: 1 });
    expect(await engram.users()).toEqual(["u1"]);
    expect((await engram.stats()).memories).toBe(1);
  });

  it("refuses every call once closed", async () => {
    const engram = await tempEngram();
    await engram.add({ userId: "u1", messages: [message("before closing")] });
    await engram.close();
    await engram.close();
    const u1 = { userId: "u1" };
    const calls: Array<() => Promise<unknown>> = [
      () => engram.add({ ...u1, messages: [message("after")] }),
      () => engram.search({ ...u1, query: "closing" }),
      () => engram.forget(u1),
      () => engram.export(u1),
      () => engram.import({}),
      () => engram.stats(),
      () => engram.users(),
      () => engram.flush(),
      () => engram.memories.get({ ...u1, id: "mem_1" }),
      () => engram.memories.list(u1),
    ];
    for (const call of calls) {
      // Wrapped so a synchronous throw and a rejection are judged alike.
      const error = await (async () => call())().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ClosedError);
      expect((error as ClosedError).code).toBe("CLOSED");
    }
  });
});

describe("unknown keys at the public surface", () => {
  it("createEngram and every call refuse a key they do not know, naming it", async () => {
    await expect(createEngram({ embedder: null, polcy: "paper" } as never)).rejects.toThrow(
      /^createEngram: unknown key "polcy"; known: .*policy/,
    );
    // Nested option objects too: fusion, its weights, skills, the policy's overrides.
    for (const [options, key] of [
      [{ retrieval: { fusion: { candidate: 10 } } }, 'retrieval.fusion: unknown key "candidate"'],
      [{ retrieval: { fusion: { weights: { text: 2 } } } }, 'retrieval.fusion.weights: unknown key "text"'],
      [{ skills: { enable: false } }, 'skills: unknown key "enable"'],
      [{ policy: { heatThresold: 3 } }, 'policy: unknown key "heatThresold"'],
    ] as const) {
      await expect(createEngram({ embedder: null, ...options } as never)).rejects.toThrow(key);
    }
    const engram = await createEngram({ path: ":memory:", embedder: null, background: false, logger: false });
    try {
      await expect(
        engram.search({ userId: "u", query: "x", top: 3, where: { a: 1 } } as never),
      ).rejects.toThrow(/^search: unknown keys "top", "where"; known: userId, query, limit, k,/);
      await expect(engram.retrieve({ userId: "u", query: "x", max_tokens: 300 } as never)).rejects.toThrow(
        /^retrieve: unknown key "max_tokens"/,
      );
      const messages = [{ role: "user", content: "hi" }];
      await expect(engram.add({ userId: "u", messages, sesionId: "s" } as never)).rejects.toThrow(
        /^add: unknown key "sesionId"/,
      );
    } finally {
      await engram.close();
    }
  });
});
