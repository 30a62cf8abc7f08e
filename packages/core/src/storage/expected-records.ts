import type { MemoryRecord } from "../model/index.js";

/** JSON with object keys sorted, so two copies of one record compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Whether two field values are equal: scalars by identity, objects (metadata, cube) by value. */
function sameValue(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (x === null || y === null || typeof x !== "object" || typeof y !== "object") return false;
  // Both parsed from the same stored JSON usually: equal strings settle it without sorting keys.
  return JSON.stringify(x) === JSON.stringify(y) || canonical(x) === canonical(y);
}

/** Whether two records are the same in every field (metadata compared by value). */
export function sameRecord(a: MemoryRecord, b: MemoryRecord): boolean {
  if (a === b) return true;
  const x = a as unknown as Record<string, unknown>;
  const y = b as unknown as Record<string, unknown>;
  for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) {
    if (!sameValue(x[key], y[key])) return false;
  }
  return true;
}

/**
 * The ids of a batch's `expect` records that are not stored exactly as given: changed, removed, or held
 * by another user. `stored` holds what the store has now for those ids (the scope's user's records only).
 */
export function expectationConflicts(
  expected: readonly MemoryRecord[],
  stored: ReadonlyMap<string, MemoryRecord>,
): string[] {
  const conflicts: string[] = [];
  for (const record of expected) {
    const now = stored.get(record.id);
    if (!now || !sameRecord(now, record)) conflicts.push(record.id);
  }
  return [...new Set(conflicts)];
}
