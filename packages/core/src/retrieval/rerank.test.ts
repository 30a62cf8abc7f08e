import { describe, expect, it } from "vitest";
import { rerank } from "./rerank.js";

const v = (...xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs.map((x) => x / n));
};

describe("rerank", () => {
  it("with lambda 1 and no threshold keeps relevance order", () => {
    const out = rerank(
      [
        { id: "b", score: 2, vector: v(1, 0) },
        { id: "a", score: 3, vector: v(1, 0) },
        { id: "c", score: 1, vector: v(0, 1) },
      ],
      { k: 3, lambda: 1, relativeThreshold: 0 },
    );
    expect(out).toEqual(["a", "b", "c"]);
  });

  it("MMR prefers a different second result over a near-copy of the first", () => {
    const out = rerank(
      [
        { id: "a", score: 3, vector: v(1, 0) },
        { id: "a-copy", score: 2.9, vector: v(1, 0.01) },
        { id: "other", score: 2.5, vector: v(0, 1) },
        { id: "far", score: 0, vector: v(-1, 0) },
      ],
      { k: 2, lambda: 0.7, relativeThreshold: 0 },
    );
    expect(out).toEqual(["a", "other"]);
  });

  it("drops the tail below the relative threshold and applies boosts", () => {
    const candidates = [
      { id: "top", score: 10, vector: null },
      { id: "weak", score: 1, vector: null },
      { id: "boosted", score: 1, vector: null, boost: 0.9 },
      { id: "floor", score: 0, vector: null },
    ];
    expect(rerank(candidates, { k: 4, lambda: 1, relativeThreshold: 0.5 })).toEqual(["top", "boosted"]);
  });

  it("returns nothing for no candidates", () => {
    expect(rerank([], { k: 3, lambda: 0.7, relativeThreshold: 0.2 })).toEqual([]);
  });
});
