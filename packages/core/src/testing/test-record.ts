import { type MemoryRecord, newRecord } from "../model/index.js";

/**
 * A stored-shape memory record for storage tests: a short-term message of the user's own cube, current,
 * at 2026-01-01, with `overrides` applied (kind, role, tier, times...).
 */
export function testRecord(
  id: string,
  userId: string,
  text: string,
  overrides: Partial<MemoryRecord> = {},
): MemoryRecord {
  const at = "2026-01-01T00:00:00.000Z";
  return newRecord({ id, userId, kind: "message", tier: "short", text, validFrom: at, ...overrides }, at);
}
