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

/** MMR as its definition reads: every round, each candidate's redundancy against every chosen one. */
function naiveMmr(
  candidates: { id: string; rel: number; vector: Float32Array | null }[],
  k: number,
  lambda: number,
): string[] {
  const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] as number), 0);
  const pool = [...candidates];
  const chosen: typeof pool = [];
  while (chosen.length < k && pool.length) {
    let pick = 0;
    let best = Number.NEGATIVE_INFINITY;
    pool.forEach((x, i) => {
      const red = Math.max(0, ...chosen.map((y) => (x.vector && y.vector ? dot(x.vector, y.vector) : 0)));
      const value = lambda * x.rel - (1 - lambda) * red;
      if (value > best) [pick, best] = [i, value];
    });
    chosen.push(...pool.splice(pick, 1));
  }
  return chosen.map((x) => x.id);
}

describe("rerank's MMR", () => {
  it("picks exactly what the round-by-round definition picks", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    // Half the trials draw scores and vectors from a few values, so that ties in value are common.
    const few = [v(1, 0, 0, 0), v(0, 1, 0, 0), v(1, 1, 0, 0)];
    for (let trial = 0; trial < 200; trial++) {
      const tied = trial % 2 === 1;
      const n = 1 + Math.floor(random() * 25);
      const candidates = Array.from({ length: n }, (_, i) => ({
        id: `c${i}`,
        score: tied ? Math.floor(random() * 4) / 4 : random(),
        vector:
          random() < 0.1
            ? null
            : tied
              ? (few[Math.floor(random() * few.length)] as Float32Array)
              : v(random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5),
      }));
      const lambda = random();
      const k = 1 + Math.floor(random() * n);
      const scores = candidates.map((c) => c.score);
      const min = Math.min(...scores);
      const range = Math.max(...scores) - min;
      const rel = candidates.map((c) => ({
        id: c.id,
        vector: c.vector,
        rel: range > 0 ? (c.score - min) / range : 1,
      }));
      expect(rerank(candidates, { k, lambda, relativeThreshold: 0 })).toEqual(naiveMmr(rel, k, lambda));
    }
  });
});
