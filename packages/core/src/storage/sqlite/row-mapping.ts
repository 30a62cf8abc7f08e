import type { MemoryRecord } from "../../model/index.js";
import { cubeKey, parseCubeKey } from "../../model/index.js";

/** Columns read for a record (never the embedding blob), in the order of `MemoryRow`. */
export const RECORD_COLUMNS =
  "rowid, id, user_id, cube, agent_id, session_id, kind, tier, role, name, text, context, key, metadata, " +
  "status, version, valid_from, valid_to, created_at, updated_at, expired_at";

/**
 * A record's row as a raw statement returns it: the values of RECORD_COLUMNS in order. Reading arrays
 * spares building an object keyed by column name for every row, which cost more than reading the row.
 */
export type MemoryRow = [
  rowid: number,
  id: string,
  user_id: string,
  cube: string,
  agent_id: string | null,
  session_id: string | null,
  kind: string,
  tier: string,
  role: string | null,
  name: string | null,
  text: string,
  context: string | null,
  key: string | null,
  metadata: string,
  status: string,
  version: number,
  valid_from: string | null,
  valid_to: string | null,
  created_at: string,
  updated_at: string,
  expired_at: string | null,
];

export function rowToRecord(row: MemoryRow): MemoryRecord {
  return {
    id: row[1],
    userId: row[2],
    cube: parseCubeKey(row[3]),
    agentId: row[4],
    sessionId: row[5],
    kind: row[6] as MemoryRecord["kind"],
    tier: row[7] as MemoryRecord["tier"],
    role: row[8] as MemoryRecord["role"],
    name: row[9],
    text: row[10],
    context: row[11],
    key: row[12],
    metadata: JSON.parse(row[13]) as Record<string, unknown>,
    status: row[14] as MemoryRecord["status"],
    version: row[15],
    validFrom: row[16],
    validTo: row[17],
    createdAt: row[18],
    updatedAt: row[19],
    expiredAt: row[20],
  };
}

export function recordToParams(record: MemoryRecord): Record<string, unknown> {
  return {
    id: record.id,
    user_id: record.userId,
    cube: cubeKey(record.cube),
    agent_id: record.agentId,
    session_id: record.sessionId,
    kind: record.kind,
    tier: record.tier,
    role: record.role,
    name: record.name,
    text: record.text,
    context: record.context,
    key: record.key,
    metadata: JSON.stringify(record.metadata),
    status: record.status,
    version: record.version,
    valid_from: record.validFrom,
    valid_to: record.validTo,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    expired_at: record.expiredAt,
  };
}

export function blobToVector(blob: Buffer): Float32Array {
  // Copy: the driver's buffer may be reused, and Float32Array needs 4-byte alignment.
  const copy = new Float32Array(blob.byteLength / 4);
  new Uint8Array(copy.buffer).set(blob);
  return copy;
}
