import { describe, expect, it } from "vitest";
import { normalize } from "../../model/index.js";
import { seededRandom } from "../../testing/index.js";
import { UserVectors } from "./user-vectors.js";

const DIM = 16;
const attrs = { kind: "message", tier: "short", expired: false };

function randomVector(next: () => number): Float32Array {
  return normalize(Array.from({ length: DIM }, () => next() * 2 - 1));
}

/** The exact answer: every live vector scored, sorted best first. */
function bruteForce(live: Map<string, Float32Array>, query: Float32Array, k: number) {
  return [...live.entries()]
    .map(([id, v]) => ({ id, score: v.reduce((s, x, i) => s + x * (query[i] as number), 0) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k);
}

function expectSameTopK(index: UserVectors, live: Map<string, Float32Array>, next: () => number, k: number) {
  for (let q = 0; q < 5; q++) {
    const query = randomVector(next);
    const got = index.search(query, k, {});
    const want = bruteForce(live, query, k);
    expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
    got.forEach((h, i) => {
      expect(h.score).toBeCloseTo(want[i]?.score as number, 5);
    });
  }
}

describe("UserVectors", () => {
  it("finds the exact top k of random vectors", () => {
    const next = seededRandom(1);
    const index = new UserVectors(DIM);
    const live = new Map<string, Float32Array>();
    for (let i = 0; i < 300; i++) {
      const vector = randomVector(next);
      live.set(`v${i}`, vector);
      index.upsert({ id: `v${i}`, ...attrs, vector });
    }
    expect(index.size).toBe(300);
    expectSameTopK(index, live, next, 1);
    expectSameTopK(index, live, next, 10);
    expectSameTopK(index, live, next, 500);
  });

  it("stays exact after removes and replaced vectors", () => {
    const next = seededRandom(2);
    const index = new UserVectors(DIM);
    const live = new Map<string, Float32Array>();
    for (let i = 0; i < 200; i++) {
      const vector = randomVector(next);
      live.set(`v${i}`, vector);
      index.upsert({ id: `v${i}`, ...attrs, vector });
    }
    for (let i = 0; i < 200; i += 3) {
      live.delete(`v${i}`);
      index.remove(`v${i}`);
    }
    for (let i = 1; i < 200; i += 7) {
      const vector = randomVector(next);
      live.set(`v${i}`, vector);
      index.upsert({ id: `v${i}`, ...attrs, vector });
    }
    index.remove("never-added");
    expect(index.size).toBe(live.size);
    expectSameTopK(index, live, next, 20);
  });

  it("stays exact across compaction after more than 1024 removals", () => {
    const next = seededRandom(3);
    const index = new UserVectors(DIM);
    const live = new Map<string, Float32Array>();
    for (let i = 0; i < 3000; i++) {
      const vector = randomVector(next);
      live.set(`v${i}`, vector);
      index.upsert({ id: `v${i}`, ...attrs, vector });
    }
    for (let i = 0; i < 1500; i++) {
      live.delete(`v${i * 2}`);
      index.remove(`v${i * 2}`);
    }
    expect(index.size).toBe(1500);
    expectSameTopK(index, live, next, 25);
    // New and re-added ids after compaction land in fresh slots and are found.
    for (let i = 0; i < 50; i++) {
      const vector = randomVector(next);
      live.set(`v${i * 2}`, vector);
      index.upsert({ id: `v${i * 2}`, ...attrs, vector });
    }
    expectSameTopK(index, live, next, 25);
    const query = live.get("v0") as Float32Array;
    expect(index.search(query, 1, {})[0]?.id).toBe("v0");
  });

  it("skips entries the filter refuses and vectors of another dimension", () => {
    const index = new UserVectors(2);
    index.upsert({ id: "a", kind: "message", tier: "short", expired: false, vector: normalize([1, 0]) });
    index.upsert({ id: "b", kind: "fact", tier: "long", expired: false, vector: normalize([1, 0.1]) });
    index.upsert({ id: "c", kind: "fact", tier: "long", expired: true, vector: normalize([1, 0.2]) });
    index.upsert({ id: "d", ...attrs, vector: normalize([1, 0, 0]) });
    expect(index.size).toBe(3);
    const query = normalize([1, 0]);
    expect(
      index.search(query, 10, { accept: (a) => a.kind === "fact" && !a.expired }).map((h) => h.id),
    ).toEqual(["b"]);
    expect(index.search(query, 10, { accept: (_a, id) => id !== "a" }).map((h) => h.id)).toEqual(["b", "c"]);
    // An upsert of an existing id updates its attributes too.
    index.upsert({ id: "c", kind: "fact", tier: "long", expired: false, vector: normalize([1, 0.2]) });
    expect(index.search(query, 10, { current: true }).map((h) => h.id)).toEqual(["a", "b", "c"]);
    index.upsert({ id: "b", kind: "fact", tier: "long", expired: true, vector: normalize([1, 0.1]) });
    expect(index.search(query, 10, { current: true }).map((h) => h.id)).toEqual(["a", "c"]);
    index.remove("b");
    expect(index.search(query, 10, { current: true }).map((h) => h.id)).toEqual(["a", "c"]);
  });

  it("searches exactly within a few wanted ids, and skips expired ones", () => {
    const next = seededRandom(5);
    const index = new UserVectors(DIM);
    const live = new Map<string, Float32Array>();
    for (let i = 0; i < 400; i++) {
      const vector = randomVector(next);
      live.set(`v${i}`, vector);
      index.upsert({ id: `v${i}`, ...attrs, expired: i % 2 === 1, vector });
    }
    const query = randomVector(next);
    const wanted = new Set(["v3", "v10", "v77", "v200", "nope"]);
    const got = index.searchWithStats(query, 10, { ids: wanted });
    const want = bruteForce(new Map([...live].filter(([id]) => wanted.has(id))), query, 10);
    expect(got.hits.map((h) => h.id)).toEqual(want.map((h) => h.id));
    expect(got.stats?.count).toBe(4);
    const current = index.search(query, 20, { current: true });
    expect(current.length).toBeGreaterThan(0);
    expect(current.every((h) => Number(h.id.slice(1)) % 2 === 0)).toBe(true);
  });
});

describe("UserVectors.stats", () => {
  it("gives the mean and sd of the cosine over every accepted vector", () => {
    const exact = new UserVectors(2);
    const put = (id: string, x: number, y: number, kind = "message") =>
      exact.upsert({ id, kind, tier: "short", expired: false, vector: Float32Array.from([x, y]) });
    put("a", 1, 0);
    put("b", 0, 1);
    put("c", 1, 0, "fact");
    const q = Float32Array.from([1, 0]);
    const s = exact.stats(q, { accept: (attrs) => attrs.kind === "message" });
    expect(s).toEqual({ mean: 0.5, sd: 0.5, count: 2 });
  });
});

describe("UserVectors.searchWithStats", () => {
  it("returns the same hits as search and the same statistics as stats, from one scan", () => {
    const set = new UserVectors(2);
    const points: Array<[string, number, number]> = [
      ["a", 1, 0],
      ["b", 0, 1],
      ["c", 0.6, 0.8],
    ];
    for (const [id, x, y] of points) {
      set.upsert({ id, kind: "message", tier: "short", expired: false, vector: Float32Array.from([x, y]) });
    }
    const q = Float32Array.from([1, 0]);
    const both = set.searchWithStats(q, 2, {});
    expect(both.hits).toEqual(set.search(q, 2, {}));
    expect(both.stats).toEqual(set.stats(q, {}));
  });
});
