// Records, versions and edges with plain defaults, for the conformance suite and for a backend's own tests.
import {
  type EdgeType,
  type MemoryEdge,
  type MemoryRecord,
  type MemoryVersion,
  type StoredMemory,
  userCube,
} from "@engram/core";

/** Fixed origin for test times, so every time in a test is exact and comparable as a string. */
export const T0 = Date.parse("2026-01-01T00:00:00.000Z");

/** The ISO time `minutes` after T0. */
export function iso(minutes: number): string {
  return new Date(T0 + minutes * 60_000).toISOString();
}

type RecordFields = Partial<MemoryRecord> & Pick<MemoryRecord, "id" | "userId">;

/** A complete memory record with plain defaults (a current user message at T0) and the given fields. */
export function makeRecord(fields: RecordFields): MemoryRecord {
  const createdAt = fields.createdAt ?? iso(0);
  return {
    cube: userCube(fields.userId),
    agentId: null,
    sessionId: null,
    kind: "message",
    tier: "short",
    role: "user",
    name: null,
    text: `memory ${fields.id}`,
    context: null,
    key: null,
    metadata: {},
    status: "ready",
    version: 1,
    validFrom: createdAt,
    validTo: null,
    createdAt,
    updatedAt: createdAt,
    expiredAt: null,
    ...fields,
  };
}

/** A record as handed to storage, with an optional vector. */
export function stored(fields: RecordFields, vector: Float32Array | null = null): StoredMemory {
  return { record: makeRecord(fields), vector };
}

/** A unit-length Float32Array pointing along the given components. */
export function unit(...components: number[]): Float32Array {
  const norm = Math.hypot(...components);
  return Float32Array.from(components, (c) => c / norm);
}

export function makeVersion(
  fields: Partial<MemoryVersion> & Pick<MemoryVersion, "memoryId" | "userId" | "version">,
): MemoryVersion {
  return {
    event: fields.version === 1 ? "create" : "update",
    text: `${fields.memoryId} v${fields.version}`,
    metadata: {},
    at: iso(fields.version),
    ...fields,
  };
}

export function makeEdge(userId: string, from: string, to: string, type: EdgeType = "related"): MemoryEdge {
  return { userId, from, to, type, createdAt: iso(0) };
}

/** Ids of records or hits, sorted, for order-free comparisons. */
export function sortedIds(items: readonly { id: string }[]): string[] {
  return items.map((item) => item.id).sort();
}
