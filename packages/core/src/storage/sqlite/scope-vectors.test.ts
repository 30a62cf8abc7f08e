import { describe, expect, it } from "vitest";
import { normalize } from "../../model/index.js";
import { seededRandom } from "../../testing/index.js";
import { ScopeVectors } from "./scope-vectors.js";
import { UserVectors } from "./user-vectors.js";

const DIM = 8;

const next = seededRandom(11);
const vector = () => normalize(Array.from({ length: DIM }, () => next() * 2 - 1));
const entry = (id: string, kind: string, v = vector()) => ({
  id,
  kind,
  tier: "mid",
  expired: false,
  vector: v,
});
const all = {};

describe("ScopeVectors", () => {
  it("answers like one exact set over the same vectors, for every kind and for all kinds", () => {
    const scope = new ScopeVectors(DIM);
    const single = new UserVectors(DIM);
    for (let i = 0; i < 60; i++) {
      const e = entry(`v${i}`, ["message", "fact", "segment"][i % 3] as string);
      scope.upsert(e);
      single.upsert(e);
    }
    const query = vector();
    const both = scope.searchWithStats(query, 10, all);
    const want = single.searchWithStats(query, 10, all);
    expect(both.hits.map((h) => h.id)).toEqual(want.hits.map((h) => h.id));
    expect(both.stats?.count).toBe(60);
    expect(both.stats?.mean).toBeCloseTo(want.stats?.mean as number, 10);
    expect(both.stats?.sd).toBeCloseTo(want.stats?.sd as number, 10);
    const facts = scope.searchWithStats(query, 50, all, ["fact"]);
    const wantFacts = single.searchWithStats(query, 50, { accept: (a) => a.kind === "fact" });
    expect(facts.hits.map((h) => h.id)).toEqual(wantFacts.hits.map((h) => h.id));
    expect(facts.stats?.count).toBe(20);
    expect(scope.stats(query, all, ["fact"])?.mean).toBeCloseTo(wantFacts.stats?.mean as number, 10);
  });

  it("moves a vector whose kind changes, and forgets removed ones", () => {
    const scope = new ScopeVectors(DIM);
    const v = vector();
    scope.upsert(entry("a", "message", v));
    scope.upsert(entry("a", "fact", v));
    expect(scope.size).toBe(1);
    expect(scope.searchWithStats(v, 5, all, ["message"]).hits).toEqual([]);
    expect(scope.searchWithStats(v, 5, all, ["fact"]).hits.map((h) => h.id)).toEqual(["a"]);
    scope.remove("a");
    expect(scope.size).toBe(0);
    expect(scope.searchWithStats(v, 5, all).hits).toEqual([]);
    expect(scope.stats(v, all)).toBeNull();
  });

  it("pools only the sets that accepted something", () => {
    const scope = new ScopeVectors(DIM);
    for (let i = 0; i < 6; i++) scope.upsert(entry(`m${i}`, i < 3 ? "message" : "fact"));
    const onlyMessages = scope.searchWithStats(vector(), 10, { accept: (a) => a.kind === "message" });
    expect(onlyMessages.stats?.count).toBe(3);
  });
});
