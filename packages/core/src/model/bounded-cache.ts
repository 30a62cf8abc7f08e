import { ValidationError } from "../errors/index.js";

/**
 * A map that keeps its `capacity` most recently used entries, the one cache discipline of the engine:
 * reading an entry makes it the most recent, and adding one past the capacity lets the oldest go.
 */
export class BoundedCache<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new ValidationError(`a cache's capacity must be a positive integer, got ${capacity}`);
  }

  get size(): number {
    return this.#entries.size;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value as K);
  }

  /** The entry for `key`, made by `make` and kept when absent. */
  memo(key: K, make: () => V): V {
    if (this.#entries.has(key)) return this.get(key) as V;
    const value = make();
    this.set(key, value);
    return value;
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}

/**
 * The caches one engine holds, each asked for by name, all cleared together: by `forget` (none of a
 * forgotten user's texts may stay in memory) and on close. Nothing is cached per process.
 */
export class CacheSet {
  readonly #caches = new Map<string, BoundedCache<unknown, unknown>>();

  /** The cache named `name`, made with `capacity` on first use. */
  cache<K, V>(name: string, capacity: number): BoundedCache<K, V> {
    let cache = this.#caches.get(name);
    if (!cache) {
      cache = new BoundedCache<unknown, unknown>(capacity);
      this.#caches.set(name, cache);
    }
    return cache as BoundedCache<K, V>;
  }

  /** How many entries all the caches hold. */
  get size(): number {
    let n = 0;
    for (const cache of this.#caches.values()) n += cache.size;
    return n;
  }

  clear(): void {
    for (const cache of this.#caches.values()) cache.clear();
  }
}
