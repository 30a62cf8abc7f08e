import type { HistoryEvent, MemoryRecord, MemoryVersion } from "./memory-record.js";
import { userCube } from "./scope.js";

type Required = Pick<MemoryRecord, "id" | "userId" | "kind" | "tier" | "text">;

/**
 * A new record (version 1, ready, current) with the given fields; everything not given takes its
 * neutral default: the user's own cube, no agent, session, role, name, context or key, no metadata.
 */
export function newRecord(fields: Required & Partial<MemoryRecord>, now: string): MemoryRecord {
  return {
    cube: userCube(fields.userId),
    agentId: null,
    sessionId: null,
    role: null,
    name: null,
    context: null,
    key: null,
    metadata: {},
    status: "ready",
    version: 1,
    validFrom: null,
    validTo: null,
    createdAt: now,
    updatedAt: now,
    expiredAt: null,
    ...fields,
  };
}

/** The history row of a write of `record` as it is now: its version, text and (unless given) metadata. */
export function versionOf(
  record: MemoryRecord,
  event: HistoryEvent,
  at: string,
  metadata: Record<string, unknown> = record.metadata,
): MemoryVersion {
  return {
    memoryId: record.id,
    userId: record.userId,
    version: record.version,
    event,
    text: record.text,
    metadata,
    at,
  };
}
