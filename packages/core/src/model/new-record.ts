import type { MemoryRecord } from "./memory-record.js";
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
