import { describe, expect, it } from "vitest";
import { cosine, dot, normalize, normalizedMean } from "./vectors.js";

const v = (...xs: number[]) => Float32Array.from(xs);

describe("vector arithmetic", () => {
  it("dot runs over the shorter vector", () => {
    expect(dot(v(1, 2, 3), v(4, 5))).toBe(14);
  });

  it("cosine is scale-free and 0 for a zero vector", () => {
    expect(cosine(v(1, 0), v(5, 0))).toBeCloseTo(1);
    expect(cosine(v(1, 0), v(0, 3))).toBeCloseTo(0);
    expect(cosine(v(1, 1), v(-2, -2))).toBeCloseTo(-1);
    expect(cosine(v(0, 0), v(1, 0))).toBe(0);
  });

  it("normalize gives a unit copy and leaves zeros as they are", () => {
    const input = [3, 4];
    expect([...normalize(input)]).toEqual([0.6000000238418579, 0.800000011920929]);
    expect(input).toEqual([3, 4]);
    expect([...normalize([0, 0])]).toEqual([0, 0]);
  });

  it("normalizedMean averages the vectors present, to unit length, and is null for none", () => {
    const mean = normalizedMean([v(1, 0), undefined, v(0, 1)]) as Float32Array;
    expect(mean[0]).toBeCloseTo(Math.SQRT1_2);
    expect(mean[1]).toBeCloseTo(Math.SQRT1_2);
    expect(normalizedMean([undefined])).toBeNull();
    expect(normalizedMean([])).toBeNull();
  });
});
