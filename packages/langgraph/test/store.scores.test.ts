import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram, type Embedder, type Engram } from "@engram/core";
import { InMemoryStore, type SearchItem } from "@langchain/langgraph-checkpoint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EngramStore } from "../src/index.js";
import { WordHashEmbeddings } from "./word-hash-embeddings.js";

// The same items and queries in LangGraph's InMemoryStore and in EngramStore, both embedding with the
// same model: the scores are the same similarities, and the filters pick the same items.
const words = new WordHashEmbeddings(64);
const embedder: Embedder = {
  id: "test/word-hash-64",
  async embed(texts) {
    const vectors = await words.embedDocuments([...texts]);
    return vectors.map((v) => {
      const norm = Math.hypot(...v) || 1;
      return Float32Array.from(v, (x) => x / norm);
    });
  },
};

const ITEMS: [string, Record<string, unknown>][] = [
  ["a", { text: "the ferry to the island leaves at nine", kind: "travel", stars: 4 }],
  ["b", { text: "my sister lives on the island with two cats", kind: "family", stars: 5 }],
  ["c", { text: "book a table at the harbour restaurant", kind: "todo", stars: 2 }],
  ["d", { text: "cats need their vaccines every year", kind: "pets", stars: 3 }],
  ["e", { text: "the night ferry is cheaper but slower", kind: "travel", stars: 1 }],
  ["f", { text: "buy flour, yeast and salt for the bread", kind: "todo", stars: 2 }],
  ["g", { text: "the harbour is closed on sundays", kind: "travel", stars: 3 }],
  ["h", { text: "island bread recipe from my sister", kind: "family", stars: 5 }],
];
const QUERIES = ["ferry to the island", "my sister", "cats", "bread and flour", "harbour restaurant sunday"];
const FILTERS: Record<string, unknown>[] = [
  { kind: "travel" },
  { stars: { $gte: 3 } },
  { stars: { $gt: 1, $lt: 5 } },
  { kind: { $in: ["todo", "pets"] } },
  { kind: { $nin: ["travel"] } },
  { kind: { $ne: "family" }, stars: { $lte: 3 } },
];
const NS = ["notes", "ana"];

let engram: Engram;
let dir: string;
let ours: EngramStore;
let theirs: InMemoryStore;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "engram-store-scores-"));
  engram = await createEngram({
    path: join(dir, "e.db"),
    embedder,
    background: false,
    tiers: false,
    logger: false,
  });
  ours = new EngramStore(engram, { fields: ["text"] });
  theirs = new InMemoryStore({
    index: { dims: 64, embeddings: new WordHashEmbeddings(64), fields: ["text"] },
  });
  for (const [key, value] of ITEMS) {
    await ours.put(NS, key, value);
    await theirs.put(NS, key, value);
  }
});
afterAll(async () => {
  await engram.close();
  rmSync(dir, { recursive: true, force: true });
});

const scored = (items: SearchItem[]) => items.map((i) => [i.key, i.score ?? null] as const);

describe("EngramStore scores and filters as InMemoryStore has them", () => {
  it.each(QUERIES)("scores %j with the same similarities, best first", async (query) => {
    const expected = scored(await theirs.search(NS, { query, limit: ITEMS.length }));
    const got = scored(await ours.search(NS, { query, limit: ITEMS.length }));
    expect(got.map(([key]) => key).sort()).toEqual(expected.map(([key]) => key).sort());
    const theirScore = new Map(expected);
    for (const [key, score] of got) {
      expect(score).not.toBeNull();
      expect(score as number).toBeCloseTo(theirScore.get(key) as number, 5);
      expect(score as number).toBeGreaterThanOrEqual(-1);
      expect(score as number).toBeLessThanOrEqual(1);
    }
    const scores = got.map(([, score]) => score as number);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
    expect(got[0]?.[0]).toBe(expected[0]?.[0]);
  });

  it.each(FILTERS)("filter %j picks the same items, with and without a query", async (filter) => {
    const keys = (items: SearchItem[]) => items.map((i) => i.key).sort();
    expect(keys(await ours.search(NS, { filter, limit: 20 }))).toEqual(
      keys(await theirs.search(NS, { filter, limit: 20 })),
    );
    const query = "island ferry";
    const expected = scored(await theirs.search(NS, { query, filter, limit: 20 }));
    const got = scored(await ours.search(NS, { query, filter, limit: 20 }));
    expect(got.map(([key]) => key).sort()).toEqual(expected.map(([key]) => key).sort());
    const theirScore = new Map(expected);
    for (const [key, score] of got) expect(score as number).toBeCloseTo(theirScore.get(key) as number, 5);
  });

  it("keeps `score > threshold` code meaningful: a threshold splits the items as it does in InMemoryStore", async () => {
    const above = async (store: EngramStore | InMemoryStore) =>
      (await store.search(NS, { query: "the island ferry", limit: 20 }))
        .filter((i) => (i.score ?? -1) > 0.3)
        .map((i) => i.key)
        .sort();
    expect(await above(ours)).toEqual(await above(theirs));
    expect((await above(ours)).length).toBeGreaterThan(0);
  });
});
