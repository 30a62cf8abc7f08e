import { afterEach, describe, expect, it } from "vitest";
import { ValidationError } from "../errors/index.js";
import { wordCoverage } from "../retrieval/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import { createEngram } from "./create-engram.js";
import type { Engram } from "./engram.js";

const open: Engram[] = [];
afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
});

async function store(texts: readonly string[]): Promise<Engram> {
  const engram = await createEngram({
    path: ":memory:",
    tiers: false,
    background: false,
    embedder: hashEmbeddingModel(),
  });
  open.push(engram);
  await engram.add({ userId: "u1", messages: texts.map((content) => ({ role: "user" as const, content })) });
  return engram;
}

const TARGET = "The Lisbon trip is booked for June";
const OTHERS = Array.from(
  { length: 40 },
  (_, i) => `Note ${i}: the ${i % 2 ? "Lisbon" : "Porto"} office has ${i} desks`,
);

describe("search relevance", () => {
  it("is in [0, 1] on every result and the same for a memory whatever else the store holds", async () => {
    const small = await store([TARGET, "I like green tea"]);
    const large = await store([TARGET, ...OTHERS]);
    const query = "When is the Lisbon trip?";
    const inSmall = (await small.search({ userId: "u1", query })).find((r) => r.text === TARGET);
    const inLarge = (await large.search({ userId: "u1", query, limit: 50 })).find((r) => r.text === TARGET);
    expect(inSmall?.relevance).toBeDefined();
    expect(inSmall?.relevance).toBe(inLarge?.relevance);
    // The fused score is relative to the list it was ranked in.
    expect(inSmall?.score).not.toBe(inLarge?.score);
    for (const r of await large.search({ userId: "u1", query, limit: 50 })) {
      expect(r.relevance).toBeGreaterThanOrEqual(0);
      expect(r.relevance).toBeLessThanOrEqual(1);
    }
  });

  it("is the better of the cosine similarity and the share of the query's words", async () => {
    const engram = await store([TARGET, "I like green tea"]);
    const query = "Lisbon trip booked";
    const [best] = await engram.search({ userId: "u1", query, channels: ["fulltext"] });
    // Found by full text only: its similarity is read from its stored vector.
    expect(best?.channels.vector).toBeUndefined();
    expect(best?.relevance).toBeGreaterThanOrEqual(wordCoverage(query, TARGET));
    expect(wordCoverage(query, TARGET)).toBe(1);
    expect(best?.relevance).toBe(1);
    expect(wordCoverage("the of and", TARGET)).toBe(0);
    expect(wordCoverage("Lisbon flights", TARGET)).toBe(0.5);
  });

  it("minScore leaves out results below it", async () => {
    const engram = await store([TARGET, ...OTHERS]);
    const all = await engram.search({ userId: "u1", query: "Lisbon trip in June", limit: 50 });
    const kept = await engram.search({
      userId: "u1",
      query: "Lisbon trip in June",
      limit: 50,
      minScore: 0.6,
    });
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(all.length);
    expect(kept.every((r) => (r.relevance ?? 0) >= 0.6)).toBe(true);
    expect(kept.map((r) => r.id)).toEqual(all.filter((r) => (r.relevance ?? 0) >= 0.6).map((r) => r.id));
    await expect(engram.search({ userId: "u1", query: "x", minScore: 1.5 })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });
});
