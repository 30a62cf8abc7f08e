import { describe, expect, it } from "vitest";
import type { Hit } from "../storage/index.js";
import { type FusedHit, type FusionOptions, fuseRankings } from "./fuse-rankings.js";

const equal = { fulltext: 1, vector: 1 };
const opts = (method: FusionOptions["method"], weights = equal): FusionOptions => ({ method, weights });

// Hand-made lists: a and b found by both channels, c only by full-text, d only by vector.
const fulltext: Hit[] = [
  { id: "a", score: 3 },
  { id: "b", score: 2 },
  { id: "c", score: 1 },
];
const vector: Hit[] = [
  { id: "b", score: 0.9 },
  { id: "d", score: 0.5 },
  { id: "a", score: 0.1 },
];
// Both lists are evenly spaced, so their z-scores are +z, 0, -z.
const z = Math.sqrt(1.5);

const ids = (hits: FusedHit[]) => hits.map((h) => h.id);
const scores = (hits: FusedHit[]) => Object.fromEntries(hits.map((h) => [h.id, h.score]));

describe("fuseRankings", () => {
  it("zscore: standardises each channel and sums", () => {
    const fused = fuseRankings({ fulltext, vector }, opts("zscore"));
    expect(ids(fused)).toEqual(["b", "a", "d", "c"]);
    const s = scores(fused);
    expect(s.b).toBeCloseTo(z, 10);
    expect(s.a).toBeCloseTo(0, 10);
    expect(s.d).toBeCloseTo(-z, 10);
    expect(s.c).toBeCloseTo(-2 * z, 10);
  });

  it("zscore: a channel that missed a candidate counts it at its floor, not at the average", () => {
    // Without the floor, d (missed by full-text) would score 0 from it and tie with a.
    const s = scores(fuseRankings({ fulltext, vector }, opts("zscore")));
    expect(s.d).toBeCloseTo(-z, 10);
    expect(s.d).toBeLessThan(s.a as number);
  });

  it("minmax: scales each channel to [0, 1] and sums", () => {
    const fused = fuseRankings({ fulltext, vector }, opts("minmax"));
    expect(ids(fused)).toEqual(["b", "a", "d", "c"]);
    const s = scores(fused);
    expect(s.b).toBeCloseTo(1.5, 10);
    expect(s.a).toBeCloseTo(1, 10);
    expect(s.d).toBeCloseTo(0.5, 10);
    expect(s.c).toBeCloseTo(0, 10);
  });

  it("rrf: sums 1 / (60 + rank), ignoring raw scores", () => {
    const fused = fuseRankings({ fulltext, vector }, opts("rrf"));
    expect(ids(fused)).toEqual(["b", "a", "d", "c"]);
    const s = scores(fused);
    expect(s.b).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(s.a).toBeCloseTo(1 / 61 + 1 / 63, 12);
    expect(s.d).toBeCloseTo(1 / 62, 12);
    expect(s.c).toBeCloseTo(1 / 63, 12);
  });

  it("keeps each channel's 1-based rank and raw score", () => {
    const byId = new Map(fuseRankings({ fulltext, vector }, opts("zscore")).map((h) => [h.id, h]));
    expect(byId.get("b")?.channels).toEqual({
      fulltext: { rank: 2, score: 2 },
      vector: { rank: 1, score: 0.9 },
    });
    expect(byId.get("a")?.channels).toEqual({
      fulltext: { rank: 1, score: 3 },
      vector: { rank: 3, score: 0.1 },
    });
    expect(byId.get("c")?.channels).toEqual({ fulltext: { rank: 3, score: 1 } });
    expect(byId.get("d")?.channels).toEqual({ vector: { rank: 2, score: 0.5 } });
  });

  it("applies channel weights", () => {
    const heavyVector = fuseRankings({ fulltext, vector }, opts("zscore", { fulltext: 1, vector: 3 }));
    expect(ids(heavyVector)).toEqual(["b", "d", "a", "c"]);
    expect(scores(heavyVector).b).toBeCloseTo(3 * z, 10);
    expect(scores(heavyVector).a).toBeCloseTo(-2 * z, 10);

    // Weight 0 silences the vector channel: full-text order, c and d tied at the floor.
    const textOnly = fuseRankings({ fulltext, vector }, opts("zscore", { fulltext: 1, vector: 0 }));
    expect(ids(textOnly)).toEqual(["a", "b", "c", "d"]);

    const rrf = fuseRankings({ fulltext, vector }, opts("rrf", { fulltext: 2, vector: 1 }));
    expect(ids(rrf)).toEqual(["a", "b", "c", "d"]);
    expect(scores(rrf).a).toBeCloseTo(2 / 61 + 1 / 63, 12);
  });

  it("breaks ties by id", () => {
    const fused = fuseRankings(
      { fulltext: [{ id: "z", score: 5 }], vector: [{ id: "y", score: 0.5 }] },
      opts("rrf"),
    );
    expect(ids(fused)).toEqual(["y", "z"]);
    expect(fused[0]?.score).toBe(fused[1]?.score);

    const flat = fuseRankings(
      {
        fulltext: [
          { id: "m2", score: 1 },
          { id: "m1", score: 1 },
          { id: "m3", score: 1 },
        ],
      },
      opts("zscore"),
    );
    expect(ids(flat)).toEqual(["m1", "m2", "m3"]);
    expect(flat.map((h) => h.score)).toEqual([1, 1, 1]);
  });

  it.each(["zscore", "minmax"] as const)(
    "%s: a lone full-text hit lifts its memory above an equal one it missed",
    (method) => {
      const fused = fuseRankings(
        {
          fulltext: [{ id: "c", score: 5 }],
          vector: [
            { id: "a", score: 0.5 },
            { id: "b", score: 0.9 },
            { id: "c", score: 0.5 },
          ],
        },
        opts(method),
      );
      expect(ids(fused).indexOf("c")).toBeLessThan(ids(fused).indexOf("a"));
    },
  );

  it("works with one channel, given alone or next to an empty one", () => {
    for (const lists of [{ fulltext }, { fulltext, vector: [] }]) {
      const fused = fuseRankings(lists, opts("zscore"));
      expect(ids(fused)).toEqual(["a", "b", "c"]);
      expect(fused.map((h) => h.score)).toEqual([z, 0, -z].map((v) => expect.closeTo(v, 10)));
      expect(fused.every((h) => h.channels.vector === undefined)).toBe(true);
    }
    expect(ids(fuseRankings({ vector }, opts("minmax")))).toEqual(["b", "d", "a"]);
  });

  it("returns nothing for no candidates", () => {
    expect(fuseRankings({}, opts("zscore"))).toEqual([]);
    expect(fuseRankings({ fulltext: [], vector: [] }, opts("rrf"))).toEqual([]);
  });
});

describe("fuseRankings with whole-scope statistics", () => {
  it("standardises the vector channel with the given mean and sd instead of its own candidates", () => {
    const lists = {
      vector: [
        { id: "a", score: 0.5 },
        { id: "b", score: 0.4 },
      ],
    };
    const own = fuseRankings(lists, { method: "zscore", weights: { fulltext: 1, vector: 1 } });
    expect(own.map((h) => h.score)).toEqual([1, -1]);
    const known = fuseRankings(lists, {
      method: "zscore",
      weights: { fulltext: 1, vector: 1 },
      stats: { vector: { mean: 0.2, sd: 0.1 } },
    });
    expect(known.map((h) => Number(h.score.toFixed(6)))).toEqual([3, 2]);
  });

  it("gives a candidate the channel did not list the known floor, not its lowest listed score", () => {
    // Full-text listed a and b only, but described more matches: mean 1, sd 1, lowest of them 0.5.
    const lists = {
      fulltext: [
        { id: "a", score: 3 },
        { id: "b", score: 2 },
      ],
      vector: [{ id: "c", score: 0.5 }],
    };
    const weights = { fulltext: 1, vector: 1 };
    const stats = { fulltext: { mean: 1, sd: 1, floor: 0.5 }, vector: { mean: 0.5, sd: 0.1 } };
    const s = scores(fuseRankings(lists, { method: "zscore", weights, stats }));
    // c: full-text floor (0.5 - 1) / 1 = -0.5, vector (0.5 - 0.5) / 0.1 = 0.
    expect(s.c).toBeCloseTo(-0.5, 10);
    const withoutFloor = scores(
      fuseRankings(lists, { method: "zscore", weights, stats: { ...stats, fulltext: { mean: 1, sd: 1 } } }),
    );
    // Without a known floor, c gets the lowest listed score: (2 - 1) / 1 = 1.
    expect(withoutFloor.c).toBeCloseTo(1, 10);
  });
});
