import { describe, expect, it } from "vitest";
import { atLeast, isOwnCollection, parseVersion } from "./collections.js";

describe("parseVersion and atLeast", () => {
  it("reads server versions and compares them numerically", () => {
    expect(parseVersion("1.19.0")).toEqual([1, 19, 0]);
    expect(parseVersion("v1.10.2-rc1")).toEqual([1, 10, 2]);
    expect(parseVersion("dev")).toBeNull();
    expect(atLeast([1, 10, 0], "1.10.0")).toBe(true);
    expect(atLeast([1, 9, 99], "1.10.0")).toBe(false);
    expect(atLeast([2, 0, 0], "1.11.0")).toBe(true);
  });
});

describe("isOwnCollection", () => {
  it("claims the store's fixed and vector collections only", () => {
    expect(isOwnCollection("engram_", "engram_memories")).toBe(true);
    expect(isOwnCollection("engram_", "engram_vectors_512")).toBe(true);
    expect(isOwnCollection("engram_", "engram_jobs")).toBe(true);
    // Another store whose prefix starts with ours.
    expect(isOwnCollection("engram_", "engram_team_memories")).toBe(false);
    expect(isOwnCollection("engram_", "engram_team_vectors_512")).toBe(false);
    expect(isOwnCollection("engram_", "other_memories")).toBe(false);
  });
});
