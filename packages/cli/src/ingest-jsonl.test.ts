import { createEngram, type Embedder, type Engram } from "@engram/core";
import { hashEmbeddingModel, storageOf } from "@engram/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { ingestJsonl } from "./ingest-jsonl.js";
import { parseJsonl } from "./read-jsonl.js";

const opened: Engram[] = [];
afterEach(async () => {
  for (const engram of opened.splice(0)) await engram.close();
});

/** An embedder that crashes on any text containing POISON (not a model error: the add fails). */
function poisonedEmbedder(): Embedder {
  const real = hashEmbeddingModel();
  return {
    id: "test/poisoned",
    async embed(texts) {
      if (texts.some((t) => t.includes("POISON"))) throw new Error("embedder crashed");
      const { embeddings } = await real.doEmbed({ values: [...texts] });
      return embeddings.map((e) => Float32Array.from(e));
    },
  };
}

/** An engine whose tiers move overflow to mid-term after every couple of turns. */
async function tieredEngram(embedder: Embedder | null = null): Promise<Engram> {
  const engram = await createEngram({
    path: ":memory:",
    embedder,
    background: false,
    policy: { shortTermCapacity: 2, evictionBatch: 1 },
  });
  opened.push(engram);
  return engram;
}

/** `n` turns per session, sessions s1, s2, ...; `extra` lands in the middle of the last session. */
function file(sessions: number, n: number, extra?: object): string {
  const rows: object[] = [];
  for (let s = 1; s <= sessions; s++) {
    for (let i = 0; i < n; i++) {
      rows.push({
        role: i % 2 ? "assistant" : "user",
        content: `session ${s} turn ${i}: the lighthouse keeper fixed lamp ${i % 3}`,
        at: new Date(Date.UTC(2026, 0, s, 0, i)).toISOString(),
        session: `s${s}`,
      });
      if (extra && s === sessions && i === n / 2) rows.push(extra);
    }
  }
  return rows.map((r) => JSON.stringify(r)).join("\n");
}

describe("ingestJsonl", () => {
  it("adds the whole file in one call, runs the tiers after, and reports progress", async () => {
    const engram = await tieredEngram();
    const progress: [number, number][] = [];
    const result = await ingestJsonl(engram, "u", parseJsonl(file(2, 10)), (d, t) => progress.push([d, t]));
    expect(result).toEqual({ userId: "u", memories: 20, added: 20, pending: 0 });
    expect(progress).toEqual([[20, 20]]);
    expect((await engram.stats({ userId: "u" })).byKind.segment).toBeGreaterThan(0);
  });

  it.each([
    [
      "a line the embedder fails on",
      { role: "user", content: "POISON", at: "2026-01-03T00:00:00Z", session: "s3" },
    ],
    ["a line whose id another user holds", { role: "user", content: "x", id: "taken", session: "s3" }],
  ])(
    "a failure on %s in the middle leaves the store exactly as before: no turns, segments or jobs",
    async (_, bad) => {
      const engram = await tieredEngram(poisonedEmbedder());
      await engram.add({ userId: "other", messages: [{ id: "taken", role: "user", content: "mine" }] });
      await ingestJsonl(engram, "u", parseJsonl(file(1, 10)), () => {});
      const before = { stats: await engram.stats(), users: await engram.users() };
      const error = await ingestJsonl(engram, "v", parseJsonl(file(3, 20, bad)), () => {}).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect({ stats: await engram.stats(), users: await engram.users() }).toEqual(before);
      expect(await storageOf(engram).jobs({ userId: "v" })).toEqual([]);
    },
  );

  it("running the same file again adds nothing, lines without a time included", async () => {
    const engram = await tieredEngram();
    const timeless = [
      { role: "user", content: "ok", session: "s9" },
      { role: "user", content: "ok", session: "s9" },
    ];
    const text = `${file(2, 10)}\n${timeless.map((r) => JSON.stringify(r)).join("\n")}`;
    const first = await ingestJsonl(engram, "u", parseJsonl(text), () => {});
    expect(first.added).toBe(22);
    const before = await engram.stats();
    const again = await ingestJsonl(engram, "u", parseJsonl(text), () => {});
    expect(again).toEqual({ userId: "u", memories: 22, added: 0, pending: 0 });
    expect(await engram.stats()).toEqual(before);
  });
});
