import { describe, expect, it } from "vitest";
import { ids, query, useSemanticsFixture } from "./semantics-fixture.js";

useSemanticsFixture();

describe("query", () => {
  it("ranks dense Cosine hits, leaves the payload out by default, honours offset and score_threshold", async () => {
    const hits = await query({ query: [1, 0], using: "dense", limit: 3 });
    expect(ids(hits)).toEqual([1, 2, 4]);
    expect(hits[0]?.score).toBeCloseTo(1, 6);
    expect(hits[0]?.payload).toBeUndefined();
    expect(ids(await query({ query: [1, 0], using: "dense", limit: 2, offset: 1 }))).toEqual([2, 4]);
    expect(ids(await query({ query: [1, 0], using: "dense", score_threshold: 0.9 }))).toEqual([1, 2]);
  });

  it("weights sparse matches by IDF over the collection", async () => {
    // N = 3 points with a `text` vector; index 1 is in all 3, index 3 in 1.
    const idf = (n: number) => Math.log1p((3 - n + 0.5) / (n + 0.5));
    const hits = await query({ query: { indices: [1, 3], values: [1, 1] }, using: "text" });
    expect(ids(hits)).toEqual([3, 1, 2]);
    expect(hits[0]?.score).toBeCloseTo(idf(3) + idf(1), 9);
    expect(hits[1]?.score).toBeCloseTo(idf(3), 9);
  });

  it("fuses prefetches with RRF (k = 2 by default, or as given) and DBSF, with the filter in every prefetch", async () => {
    const prefetch = [
      { query: [1, 0], using: "dense", limit: 3 },
      { query: { indices: [3], values: [1] }, using: "text", limit: 3 },
    ];
    const rrf = await query({ prefetch, query: { fusion: "rrf" } });
    // dense: 1, 2, 4 ; sparse: 3 → 1 and 3 tie at 1/2, then 2 at 1/3, 4 at 1/4.
    expect(rrf.map((hit) => [hit.id, hit.score])).toEqual([
      [1, 0.5],
      [3, 0.5],
      [2, 1 / 3],
      [4, 0.25],
    ]);
    const k60 = await query({ prefetch, query: { rrf: { k: 60 } } });
    expect(k60[0]?.score).toBeCloseTo(1 / 60, 12);
    const dbsf = await query({ prefetch, query: { fusion: "dbsf" } });
    expect(dbsf.find((hit) => hit.id === 3)?.score).toBe(0.5);
    const filtered = await query({
      prefetch,
      query: { fusion: "rrf" },
      filter: { must: [{ key: "n", range: { gte: 5 } }] },
    });
    expect(ids(filtered).sort()).toEqual([2, 3]);
  });

  it("rejects what the server rejects", async () => {
    await expect(query({ prefetch: [{ query: [1, 0], using: "dense" }] })).rejects.toThrow(
      "A query is needed to merge the prefetches",
    );
    await expect(query({ query: { fusion: "rrf" }, using: "dense" })).rejects.toThrow(
      "Fusion queries cannot be combined with the 'using' field.",
    );
    await expect(query({ query: [1, 0, 0], using: "dense" })).rejects.toThrow(
      "Vector dimension error: expected dim: 2, got 3",
    );
  });
});
