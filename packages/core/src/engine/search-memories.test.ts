import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embedderFromModel } from "../ai/index.js";
import { ValidationError } from "../errors/index.js";
import { type MemoryRecord, sequentialIds } from "../model/index.js";
import type { VectorQuery } from "../storage/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import { storageOf } from "../testing.js";
import { createEngram } from "./create-engram.js";
import type { Engram } from "./engram.js";

let dir: string;
let engram: Engram;
const u1 = { userId: "u1" };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-search-"));
  engram = await createEngram({
    tiers: false,
    background: false,
    path: path.join(dir, "engram.db"),
    embedder: hashEmbeddingModel(),
    clock: () => new Date("2026-03-01T00:00:00.000Z"),
    ids: sequentialIds(),
  });
  await engram.add({
    ...u1,
    sessionId: "s1",
    at: "2026-01-10T10:00:00Z",
    messages: [
      { id: "mem_1", role: "user", content: "I started learning the cello this winter" },
      { id: "mem_2", role: "assistant", content: "Which piece are you practising?" },
    ],
  });
  await engram.add({
    ...u1,
    sessionId: "s2",
    at: "2026-02-10T10:00:00Z",
    messages: [
      { id: "mem_3", role: "user", content: "My cello teacher says my bowing improved" },
      { id: "mem_4", role: "user", content: "Also I booked flights to Oslo" },
    ],
  });
  await engram.add({
    userId: "u2",
    messages: [{ id: "mem_5", role: "user", content: "cello cello cello lessons" }],
  });
  // A fact and a superseded fact, written through the storage port as later layers will.
  const base = (await engram.memories.get({ ...u1, id: "mem_3" })) as MemoryRecord;
  const [vector] = await embedderFromModel(hashEmbeddingModel()).embed(["cello fact"]);
  const fact = (id: string, expiredAt: string | null): MemoryRecord => ({
    ...base,
    id,
    kind: "fact",
    tier: "long",
    role: null,
    sessionId: null,
    text: `the user plays the cello (${id})`,
    context: null,
    createdAt: "2026-02-01T00:00:00.000Z",
    expiredAt,
  });
  await storageOf(engram).write(u1, {
    upsert: [
      { record: fact("fact_1", null), vector: vector ?? null },
      { record: fact("fact_old", "2026-02-20T00:00:00.000Z"), vector: vector ?? null },
    ],
  });
});
afterAll(async () => {
  await engram.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ids = (results: { id: string }[]) => results.map((r) => r.id).sort();

describe("search", () => {
  it("takes limit, and k (its old name) as a deprecated alias that is reported, never both", async () => {
    const events: unknown[] = [];
    const old = await createEngram({
      path: ":memory:",
      embedder: null,
      background: false,
      logger: false,
      onEvent: (e) => events.push(e),
      clock: () => new Date("2026-03-01T00:00:00.000Z"),
    });
    try {
      const messages = ["cello one", "cello two", "cello three"].map((content) => ({
        role: "user" as const,
        content,
      }));
      await old.add({ ...u1, messages });
      expect(await old.search({ ...u1, query: "cello", limit: 2 })).toHaveLength(2);
      expect(await old.search({ ...u1, query: "cello" })).toHaveLength(3);
      expect(events).toEqual([]);
      // The old name still works, and says what to use instead.
      expect(await old.search({ ...u1, query: "cello", k: 1 })).toHaveLength(1);
      expect(events).toEqual([
        { type: "deprecated", at: "2026-03-01T00:00:00.000Z", name: "search.k", use: "search.limit" },
      ]);
      await expect(old.search({ ...u1, query: "cello", k: 1, limit: 2 })).rejects.toThrow(
        /^search: pass limit only \(k is its old name, deprecated\), not both$/,
      );
      await expect(old.search({ ...u1, query: "cello", limit: 0 })).rejects.toThrow(/^search: limit: /);
    } finally {
      await old.close();
    }
  });

  it("returns fused hits with each channel's rank and score, best first", async () => {
    const results = await engram.search({ ...u1, query: "cello bowing teacher" });
    expect(results[0]?.id).toBe("mem_3");
    const top = results[0];
    expect(top?.channels.fulltext?.rank).toBe(1);
    expect(top?.channels.fulltext?.score).toBeGreaterThan(0);
    expect(top?.channels.vector?.rank).toBe(1);
    expect(top?.channels.vector?.score).toBeGreaterThan(0.3);
    expect(top?.channels.vector?.score).toBeLessThanOrEqual(1 + 1e-6);
    expect(top).toMatchObject({
      text: "My cello teacher says my bowing improved",
      kind: "message",
      tier: "short",
    });
    expect(top?.at).toBe("2026-02-10T10:00:00.000Z");
    expect(top?.memory.id).toBe("mem_3");
    for (let i = 1; i < results.length; i++) {
      expect(results[i - 1]?.score).toBeGreaterThanOrEqual(results[i]?.score as number);
    }
  });

  it("never returns another user's memories or superseded ones", async () => {
    const results = await engram.search({ ...u1, query: "cello", limit: 100 });
    expect(ids(results)).not.toContain("mem_5");
    expect(ids(results)).not.toContain("fact_old");
    expect(ids(await engram.search({ userId: "u2", query: "cello", limit: 100 }))).toEqual(["mem_5"]);
  });

  it("respects k", async () => {
    expect(await engram.search({ ...u1, query: "cello", limit: 2 })).toHaveLength(2);
    expect(await engram.search({ ...u1, query: "cello", limit: 1 })).toHaveLength(1);
  });

  it("filters by kind, session and event time", async () => {
    expect(ids(await engram.search({ ...u1, query: "cello", kinds: ["fact"] }))).toEqual(["fact_1"]);
    const s1 = await engram.search({ ...u1, query: "cello piece practising", sessionId: "s1", limit: 100 });
    expect(ids(s1)).toEqual(["mem_1", "mem_2"]);
    const feb = await engram.search({
      ...u1,
      query: "cello Oslo",
      from: "2026-02-01T00:00:00Z",
      to: "2026-02-28",
      kinds: ["message"],
      limit: 100,
    });
    expect(ids(feb)).toEqual(["mem_3", "mem_4"]);
    const jan = await engram.search({
      ...u1,
      query: "cello",
      to: new Date("2026-01-31T00:00:00Z"),
      limit: 100,
    });
    expect(ids(jan)).toEqual(["mem_1", "mem_2"]);
  });

  it("sees what was known at a point in time (system time)", async () => {
    const past = await engram.search({ ...u1, query: "cello", kinds: ["fact"], at: "2026-02-15T00:00:00Z" });
    expect(ids(past)).toEqual(["fact_1", "fact_old"]);
    const before = await engram.search({
      ...u1,
      query: "cello",
      kinds: ["fact"],
      at: "2026-01-15T00:00:00Z",
    });
    expect(before).toEqual([]);
  });

  it("searches only the channels asked for", async () => {
    const text = await engram.search({ ...u1, query: "Oslo flights", channels: ["fulltext"] });
    expect(ids(text)).toEqual(["mem_4"]);
    expect(text[0]?.channels.vector).toBeUndefined();
    const dense = await engram.search({ ...u1, query: "Oslo flights", channels: ["vector"], limit: 3 });
    expect(dense[0]?.id).toBe("mem_4");
    expect(dense.every((r) => r.channels.fulltext === undefined)).toBe(true);
  });

  it("uses a given query vector instead of embedding the query", async () => {
    const [vector] = await embedderFromModel(hashEmbeddingModel()).embed(["booked flights to Oslo"]);
    // Copied: the input type wants a Float32Array over a plain ArrayBuffer.
    const queryVector = new Float32Array(vector as Float32Array);
    const results = await engram.search({ ...u1, query: "zzz", queryVector, limit: 1 });
    expect(results[0]?.id).toBe("mem_4");
    expect(results[0]?.channels).toEqual({ vector: expect.objectContaining({ rank: 1 }) });
  });

  it("finds nothing for an unknown user or a stopword-only query's full-text channel", async () => {
    expect(await engram.search({ userId: "nobody", query: "cello" })).toEqual([]);
    const stop = await engram.search({ ...u1, query: "the of and", channels: ["fulltext"] });
    expect(stop).toEqual([]);
  });

  it("names the bad field", async () => {
    const cases: Array<[unknown, string]> = [
      [{ query: "x" }, "userId"],
      [{ ...u1, query: "  " }, "query"],
      [{ ...u1, query: "x", k: 0 }, "k"],
      [{ ...u1, query: "x", kinds: ["thought"] }, "kinds.0"],
      [{ ...u1, query: "x", from: "yesterday" }, "from"],
      [{ ...u1, query: "x", channels: [] }, "channels"],
    ];
    for (const [input, field] of cases) {
      const error = await engram.search(input as Parameters<Engram["search"]>[0]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).details.path).toBe(field);
      expect((error as ValidationError).message.startsWith(`search: ${field}: `)).toBe(true);
    }
  });
});

describe("vector candidates", () => {
  it("asks the vector channel for vectorCandidates, and approximateCandidates from a graph", async () => {
    const engram = await createEngram({
      tiers: false,
      background: false,
      embedder: null,
      path: ":memory:",
      retrieval: { fusion: { vectorCandidates: 40, approximateCandidates: 12 } },
    });
    try {
      const asked: VectorQuery[] = [];
      const search = storageOf(engram).vectorSearch.bind(storageOf(engram));
      storageOf(engram).vectorSearch = (scope, query) => {
        asked.push(query);
        return search(scope, query);
      };
      const queryVector = Float32Array.from({ length: 512 }, (_, i) => (i === 0 ? 1 : 0));
      await engram.search({ ...u1, query: "kite", limit: 5, queryVector });
      await engram.search({ ...u1, query: "kite", limit: 20, queryVector });
      expect(asked.map((q) => [q.k, q.approximateK])).toEqual([
        [40, 12],
        [40, 20],
      ]);
      const error = await createEngram({
        path: ":memory:",
        retrieval: { fusion: { approximateCandidates: 0 } },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
    } finally {
      await engram.close();
    }
  });
});

describe("search with full-text statistics from the backend", () => {
  it("lists textCandidates full-text hits and standardises them over the best candidates matches", async () => {
    const small = fs.mkdtempSync(path.join(os.tmpdir(), "engram-textstats-"));
    const options = { tiers: false, background: false, embedder: null } as const;
    const narrow = await createEngram({
      ...options,
      ids: sequentialIds(),
      path: path.join(small, "a.db"),
      retrieval: { fusion: { textCandidates: 2 } },
    });
    const wide = await createEngram({ ...options, ids: sequentialIds(), path: path.join(small, "b.db") });
    try {
      // "kite" in every line, "red" in a few: ten matches, with distinct scores.
      const lines = Array.from({ length: 10 }, (_, i) => `kite ${"red ".repeat(i % 3)}number ${i}`);
      for (const e of [narrow, wide]) {
        await e.add({ ...u1, messages: lines.map((content) => ({ role: "user" as const, content })) });
      }
      const few = await narrow.search({ ...u1, query: "red kite", limit: 2 });
      const all = await wide.search({ ...u1, query: "red kite", limit: 2 });
      // The same order and the same fused scores: the statistics come from all matches either way.
      expect(few.map((r) => r.text)).toEqual(all.map((r) => r.text));
      for (const [i, r] of few.entries()) expect(r.score).toBeCloseTo(all[i]?.score as number, 9);
      expect(few.every((r) => (r.channels.fulltext?.rank ?? 0) <= 2)).toBe(true);
      const error = await createEngram({
        ...options,
        path: ":memory:",
        retrieval: { fusion: { textCandidates: 0 } },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
    } finally {
      await narrow.close();
      await wide.close();
      fs.rmSync(small, { recursive: true, force: true });
    }
  });
});
