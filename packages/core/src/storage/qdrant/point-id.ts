import { createHash } from "node:crypto";

/** Engram's UUIDv5 namespace for Qdrant point ids (a fixed random UUID; never change it: ids would move). */
export const ENGRAM_NAMESPACE = "6f0b5d2e-8a43-4c1e-9d7a-3b2f1e0c9a85";

function uuidBytes(uuid: string): Buffer {
  return Buffer.from(uuid.replaceAll("-", ""), "hex");
}

/** RFC 4122 name-based UUID (version 5, SHA-1) of `name` in `namespace`, canonical lowercase form. */
export function uuidv5(name: string, namespace = ENGRAM_NAMESPACE): string {
  const hash = createHash("sha1").update(uuidBytes(namespace)).update(name, "utf8").digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Qdrant accepts only u64 or UUID point ids, so every stored thing gets a UUIDv5 of a JSON tuple naming
 * what it is (JSON, so no separator inside an id can make two tuples collide). Memory and job ids are
 * unique across users (as in the SQLite store), so their point ids do not include the user; history
 * rows, edges and key-value entries are unique per user, so theirs do.
 */
export const pointIds = {
  memory: (id: string) => uuidv5(JSON.stringify(["memory", id])),
  job: (id: string) => uuidv5(JSON.stringify(["job", id])),
  history: (userId: string, memoryId: string, version: number, event: string) =>
    uuidv5(JSON.stringify(["history", userId, memoryId, version, event])),
  edge: (userId: string, from: string, to: string, type: string) =>
    uuidv5(JSON.stringify(["edge", userId, from, to, type])),
  kv: (userId: string, namespace: string, key: string) =>
    uuidv5(JSON.stringify(["kv", userId, namespace, key])),
  setting: (name: string) => uuidv5(JSON.stringify(["setting", name])),
};
