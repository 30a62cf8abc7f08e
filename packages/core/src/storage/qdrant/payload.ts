import {
  cubeKey,
  type EdgeType,
  type MemoryEdge,
  type MemoryRecord,
  type MemoryVersion,
  parseCubeKey,
} from "../../model/index.js";
import type { KvEntry } from "../storage-port.js";

export type Payload = Record<string, unknown>;

/** Milliseconds since the epoch of an ISO time, or null: time filters compare integers. */
export function ms(iso: string | null): number | null {
  if (iso === null) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

/**
 * One keyword per scalar top-level metadata field, `JSON.stringify([name, value])`: equality on a field is
 * then a keyword match that is type-strict (`2` is not `"2"`, `true` is not `1`) and treats any name
 * literally (Qdrant would read a `.` in a payload key as a path).
 */
export function metadataTerm(name: string, value: string | number | boolean): string {
  return JSON.stringify([name, value]);
}

/** The payload field of a memory's numeric metadata, `[{k: name, v: number}]`, which range filters read. */
export const NUMERIC_METADATA = "meta_num";
/**
 * Marks a point whose payload has `meta_num`; points written before it existed lack it and are brought up
 * to date before the first range filter reads them (`QdrantReads.numericMetadata`).
 */
export const PAYLOAD_VERSION = "meta_v";

export function numericMetadata(metadata: Record<string, unknown>): { k: string; v: number }[] {
  return Object.entries(metadata).flatMap(([k, v]) =>
    typeof v === "number" && Number.isFinite(v) ? [{ k, v }] : [],
  );
}

function metadataTerms(metadata: Record<string, unknown>): string[] {
  return Object.entries(metadata).flatMap(([name, value]) =>
    typeof value === "string" || typeof value === "number" || typeof value === "boolean"
      ? [metadataTerm(name, value)]
      : [],
  );
}

/** The fields every filter reads; shared by the records collection and the vector collections. */
export function filterPayload(record: MemoryRecord): Payload {
  return {
    user_id: record.userId,
    memory_id: record.id,
    cube: cubeKey(record.cube),
    agent_id: record.agentId,
    session_id: record.sessionId,
    kind: record.kind,
    tier: record.tier,
    role: record.role,
    key: record.key,
    meta: metadataTerms(record.metadata),
    [NUMERIC_METADATA]: numericMetadata(record.metadata),
    [PAYLOAD_VERSION]: 1,
    valid_ms: ms(record.validFrom),
    created_ms: ms(record.createdAt),
    expired_ms: ms(record.expiredAt),
  };
}

/**
 * A memory's full payload. Times are kept as the exact ISO strings given (plus integer copies for
 * filtering); metadata as JSON text, so any key name and value round-trips unchanged. `seq` orders records
 * stored at the same instant by when they were first written, as SQLite's rowid does. `rev` is new on
 * every write of the point: a conditional write stores over the point only while it still has the `rev`
 * its check saw (Qdrant's `update_filter`), and reads it back to learn whether it won.
 */
export function memoryPayload(record: MemoryRecord, seq: number, rev: string): Payload {
  return {
    ...filterPayload(record),
    name: record.name,
    text: record.text,
    context: record.context,
    metadata: JSON.stringify(record.metadata),
    status: record.status,
    version: record.version,
    valid_from: record.validFrom,
    valid_to: record.validTo,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    expired_at: record.expiredAt,
    order_ms: ms(record.validFrom) ?? ms(record.createdAt),
    seq,
    rev,
  };
}

const str = (p: Payload, k: string) => p[k] as string;
const strOrNull = (p: Payload, k: string) => (p[k] ?? null) as string | null;

export function payloadToRecord(p: Payload): MemoryRecord {
  return {
    id: str(p, "memory_id"),
    userId: str(p, "user_id"),
    cube: parseCubeKey(str(p, "cube")),
    agentId: strOrNull(p, "agent_id"),
    sessionId: strOrNull(p, "session_id"),
    kind: p.kind as MemoryRecord["kind"],
    tier: p.tier as MemoryRecord["tier"],
    role: (p.role ?? null) as MemoryRecord["role"],
    name: strOrNull(p, "name"),
    text: str(p, "text"),
    context: strOrNull(p, "context"),
    key: strOrNull(p, "key"),
    metadata: JSON.parse(str(p, "metadata")) as Record<string, unknown>,
    status: p.status as MemoryRecord["status"],
    version: p.version as number,
    validFrom: strOrNull(p, "valid_from"),
    validTo: strOrNull(p, "valid_to"),
    createdAt: str(p, "created_at"),
    updatedAt: str(p, "updated_at"),
    expiredAt: strOrNull(p, "expired_at"),
  };
}

export function versionPayload(v: MemoryVersion): Payload {
  return {
    user_id: v.userId,
    memory_id: v.memoryId,
    version: v.version,
    event: v.event,
    text: v.text,
    metadata: JSON.stringify(v.metadata),
    at: v.at,
  };
}

export function edgePayload(e: MemoryEdge): Payload {
  return { user_id: e.userId, src: e.from, dst: e.to, type: e.type, created_at: e.createdAt };
}

export function payloadToEdge(p: Payload): MemoryEdge {
  return {
    userId: str(p, "user_id"),
    from: str(p, "src"),
    to: str(p, "dst"),
    type: p.type as EdgeType,
    createdAt: str(p, "created_at"),
  };
}

/** Every leading run of namespace parts, as cube keys: a prefix listing is one keyword match. */
export function namespacePrefixes(namespace: readonly string[]): string[] {
  return namespace.map((_, i) => cubeKey(namespace.slice(0, i + 1)));
}

export function kvPayload(
  userId: string,
  entry: Omit<KvEntry, "createdAt" | "updatedAt">,
  createdAt: string,
  now: string,
): Payload {
  return {
    user_id: userId,
    namespace: cubeKey(entry.namespace),
    ns_prefixes: namespacePrefixes(entry.namespace),
    key: entry.key,
    value: entry.value,
    created_at: createdAt,
    updated_at: now,
  };
}
