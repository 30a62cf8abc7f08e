import type { MemoryRecord } from "../model/index.js";

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
  return {
    id,
    userId,
    cube: ["user", userId],
    agentId: null,
    sessionId: null,
    kind: "message",
    tier: "short",
    role: null,
    name: null,
    text,
    context: null,
    key: null,
    metadata: {},
    status: "ready",
    version: 1,
    validFrom: at,
    validTo: null,
    createdAt: at,
    updatedAt: at,
    expiredAt: null,
    ...overrides,
  };
}
