import { describe, expect, it } from "vitest";
import { searchExpansion } from "./index-files.js";

describe("searchExpansion", () => {
  it("searches a graph of fewer than 20,000 vectors with 128, a larger one with 256", () => {
    expect(searchExpansion(0)).toBe(128);
    expect(searchExpansion(10_000)).toBe(128);
    expect(searchExpansion(19_999)).toBe(128);
    expect(searchExpansion(20_000)).toBe(256);
    expect(searchExpansion(100_000)).toBe(256);
  });
});
