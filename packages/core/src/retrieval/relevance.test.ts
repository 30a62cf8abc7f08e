import { describe, expect, it } from "vitest";
import { CacheSet } from "../model/index.js";
import type { SearchResult } from "./query-ports.js";
import { withRelevance, wordCoverage } from "./relevance.js";

const result = (id: string, text: string): SearchResult =>
  ({ id, text, score: 1, channels: {}, kind: "message" }) as unknown as SearchResult;
const ports = (caches?: CacheSet) => ({
  storage: { getVectors: async () => new Map<string, Float32Array>() },
  ...(caches ? { caches } : {}),
});
const results = [
  result("a", "We booked the Lisbon trips for June, flights and hotels both."),
  result("b", "The Porto office has twelve desks."),
];
const query = "When is the Lisbon trip booked?";

describe("withRelevance", () => {
  it("gives the same relevance with the engine's caches as without, each text stemmed once", async () => {
    const plain = await withRelevance(ports(), { userId: "u" }, query, null, results);
    expect(plain.map((r) => r.relevance)).toEqual(results.map((r) => wordCoverage(query, r.text)));
    expect(plain[0]?.relevance).toBeGreaterThan(0.5);
    expect(plain[1]?.relevance).toBe(0);
    const caches = new CacheSet();
    const cached = await withRelevance(ports(caches), { userId: "u" }, query, null, results);
    expect(cached.map((r) => r.relevance)).toEqual(plain.map((r) => r.relevance));
    expect(caches.size).toBe(2);
    // Another query over the same texts reads their stems from the cache.
    await withRelevance(ports(caches), { userId: "u" }, "How many desks in Porto?", null, results);
    expect(caches.size).toBe(2);
    caches.clear();
    expect(caches.size).toBe(0);
  });
});
