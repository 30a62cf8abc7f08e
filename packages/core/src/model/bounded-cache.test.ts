import { describe, expect, it } from "vitest";
import { ValidationError } from "../errors/index.js";
import { BoundedCache, CacheSet } from "./bounded-cache.js";

describe("BoundedCache", () => {
  it("lets the least recently used entry go past its capacity", () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1); // a is now the most recent
    cache.set("c", 3);
    expect(cache.has("b")).toBe(false);
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
    expect(cache.size).toBe(2);
  });

  it("memoizes, including falsy values, and makes each value once", () => {
    const cache = new BoundedCache<string, number | null>(4);
    let made = 0;
    const make = () => {
      made++;
      return null;
    };
    expect(cache.memo("x", make)).toBeNull();
    expect(cache.memo("x", make)).toBeNull();
    expect(made).toBe(1);
  });

  it("re-setting a key refreshes it rather than growing", () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("a", 10);
    cache.set("c", 3);
    expect([...["a", "b", "c"].filter((k) => cache.has(k))]).toEqual(["a", "c"]);
    expect(cache.get("a")).toBe(10);
  });

  it("refuses a capacity that is not a positive integer", () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new BoundedCache(bad)).toThrow(ValidationError);
  });
});

describe("CacheSet", () => {
  it("hands out one cache per name, and clears them all together", () => {
    const caches = new CacheSet();
    caches.cache<string, number>("a", 8).set("k", 1);
    caches.cache<string, number>("b", 8).set("k", 2);
    expect(caches.cache<string, number>("a", 8).get("k")).toBe(1);
    expect(caches.size).toBe(2);
    caches.clear();
    expect(caches.size).toBe(0);
  });
});
