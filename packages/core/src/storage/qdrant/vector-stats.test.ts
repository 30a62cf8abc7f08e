import { describe, expect, it } from "vitest";
import { similarityStats } from "./vector-stats.js";

describe("similarityStats", () => {
  it("is the mean and population standard deviation of the dot products", () => {
    const q = Float32Array.from([1, 0]);
    const stats = similarityStats(q, [
      Float32Array.from([1, 0]),
      Float32Array.from([0, 1]),
      Float32Array.from([-1, 0]),
    ]);
    expect(stats?.count).toBe(3);
    expect(stats?.mean).toBeCloseTo(0, 10);
    expect(stats?.sd).toBeCloseTo(Math.sqrt(2 / 3), 10);
  });

  it("is null for an empty set", () => {
    expect(similarityStats(Float32Array.from([1]), [])).toBeNull();
  });
});
