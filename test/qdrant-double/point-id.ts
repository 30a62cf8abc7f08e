import { QdrantError } from "./qdrant-error.js";

export type PointId = number | string;

const UUID_FORMS = [
  /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/i,
  /^urn:uuid:([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/i,
  /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/i,
];

function canonicalUuid(text: string): string | undefined {
  for (const form of UUID_FORMS) {
    const found = form.exec(text);
    if (found) return found.slice(1).join("-").toLowerCase();
  }
  return undefined;
}

function invalidId(value: unknown): QdrantError {
  return new QdrantError(
    400,
    `Format error in JSON body: value ${JSON.stringify(value)} is not a valid point ID, valid values are either an unsigned integer or a UUID`,
  );
}

/**
 * A body id: a u64 or a UUID in any of its textual forms, echoed back as lowercase hyphenated.
 * A numeric string such as "123" is no id (the server does not coerce it).
 */
export function normalizePointId(value: unknown): PointId {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === "string") {
    const uuid = canonicalUuid(value);
    if (uuid) return uuid;
  }
  throw invalidId(value);
}

/** A path id (`GET /points/{id}`): there "123" is the number 123. */
export function parsePathPointId(text: string): PointId {
  if (/^\d+$/.test(text)) return Number(text);
  const uuid = canonicalUuid(text);
  if (uuid) return uuid;
  throw new QdrantError(400, `Format error in path parameters: invalid point id \`${text}\``);
}

/** Map key for a point id: numbers and UUIDs never collide. */
export const pointKey = (id: PointId): string => (typeof id === "number" ? `n:${id}` : `u:${id}`);

/** Server order: every numeric id before every UUID; UUIDs by bytes (= lowercase hex order). */
export function comparePointIds(a: PointId, b: PointId): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
