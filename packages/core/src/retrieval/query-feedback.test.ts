import { describe, expect, it } from "vitest";
import { rocchio } from "./query-feedback.js";

describe("rocchio", () => {
  it("moves the query toward the mean of the hits, at unit length", () => {
    const q = Float32Array.from([1, 0, 0]);
    const moved = rocchio(q, [Float32Array.from([0, 1, 0]), Float32Array.from([0, 0, 1])], 1);
    expect([...moved].map((x) => Number(x.toFixed(4)))).toEqual([0.8165, 0.4082, 0.4082]);
    expect(Math.hypot(...moved)).toBeCloseTo(1, 6);
  });

  it("leaves the query's direction with weight 0, and does not change its input", () => {
    const q = Float32Array.from([3, 4]);
    expect([...rocchio(q, [Float32Array.from([1, 0])], 0)]).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect([...q]).toEqual([3, 4]);
  });
});
