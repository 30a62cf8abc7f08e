import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY_POLICY, isRetryableStatus, parseRetryAfter, retryDelay } from "./retry-policy.js";

describe("isRetryableStatus", () => {
  it("retries timeouts, rate limits and server errors only", () => {
    for (const status of [408, 429, 500, 502, 503, 504]) expect(isRetryableStatus(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 422]) expect(isRetryableStatus(status)).toBe(false);
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds as seconds (the npm client reads only the first character)", () => {
    expect(parseRetryAfter("30")).toBe(30_000);
    expect(parseRetryAfter("1")).toBe(1_000);
    expect(parseRetryAfter(" 2 ")).toBe(2_000);
  });

  it("reads an HTTP date relative to now", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:05 GMT", now)).toBe(5_000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:59:00 GMT", now)).toBe(0);
  });

  it("is null when absent or unreadable", () => {
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter("soon")).toBeNull();
  });
});

describe("retryDelay", () => {
  const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 10_000 };

  it("keeps the jitter between half and all of the exponential ceiling", () => {
    for (const [attempt, ceiling] of [
      [0, 100],
      [1, 200],
      [2, 400],
      [3, 800],
      [4, 1_000],
      [9, 1_000],
    ] as const) {
      expect(retryDelay(policy, attempt, null, () => 0)).toBe(ceiling / 2);
      expect(retryDelay(policy, attempt, null, () => 0.999999)).toBeCloseTo(ceiling, 2);
      const d = retryDelay(policy, attempt, null);
      expect(d).toBeGreaterThanOrEqual(ceiling / 2);
      expect(d).toBeLessThanOrEqual(ceiling);
    }
  });

  it("waits exactly what Retry-After asks, up to the cap", () => {
    expect(retryDelay(policy, 0, 3_000, () => 0.5)).toBe(3_000);
    expect(retryDelay(policy, 0, 120_000)).toBe(10_000);
  });
});
