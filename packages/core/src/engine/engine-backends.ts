import type { StoragePort } from "../storage/index.js";

/**
 * Each engine's backend, for `storageOf`: off the facade, so the public API has no way around the engine.
 * Keyed by object, not by `Engram`, so that this file need not import the engine that imports it.
 */
const backends = new WeakMap<object, StoragePort>();

/** Called by the engine as it is made. */
export function registerBackend(engine: object, storage: StoragePort): void {
  backends.set(engine, storage);
}

/**
 * The backend behind an engine, for tests and benchmarks that inspect or set up what is stored. Writes
 * through it bypass the engine's bookkeeping (history, jobs, the tiers). From `@engram/core/testing`.
 */
export function storageOf(engram: object): StoragePort {
  const storage = backends.get(engram);
  if (!storage) throw new TypeError("storageOf() takes an engine made by createEngram()");
  return storage;
}
