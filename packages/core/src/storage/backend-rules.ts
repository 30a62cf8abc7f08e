import { ConflictError, ScopeError } from "../errors/index.js";
import { cubeKey, type MemoryRecord, type MemoryVersion } from "../model/index.js";
import type { KvEntry } from "./storage-port.js";

// What every backend refuses and orders the same way, written once.

/** A memory id another user already holds. */
export function idTaken(id: string): ScopeError {
  return new ScopeError(`write: memory id ${id} is taken by another user; use a new id`);
}

/** A current memory's key slot: unique per user, cube and kind. */
export const keySlot = (r: MemoryRecord): string => JSON.stringify([cubeKey(r.cube), r.kind, r.key]);

/** A key already used by another current memory of the same cube and kind. */
export function keyTaken(r: MemoryRecord): ConflictError {
  return new ConflictError(
    `write: key "${r.key}" is already used by a current ${r.kind} in cube ${cubeKey(r.cube)}; expire the old memory (expiredAt) in the same batch or use another key`,
  );
}

/** `limit` items from `offset`. */
export function page<T>(items: T[], limit?: number, offset = 0): T[] {
  return items.slice(offset, limit === undefined ? undefined : offset + limit);
}

/** History in version order (then time); key-value entries by namespace, then key. */
export const byVersion = (a: MemoryVersion, b: MemoryVersion): number =>
  a.version - b.version || a.at.localeCompare(b.at);
export function byNamespaceAndKey(a: KvEntry, b: KvEntry): number {
  const x = cubeKey(a.namespace);
  const y = cubeKey(b.namespace);
  return x < y ? -1 : x > y ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}
