import { type Collection, DEFAULT_VECTOR, type Payload, type StoredPoint } from "./collection.js";
import { deleteAt, parsePath } from "./payload-path.js";

export type WithPayload =
  | boolean
  | string[]
  | { include: string | string[] }
  | { exclude: string | string[] }
  | null
  | undefined;
export type WithVector = boolean | string[] | null | undefined;

const asList = (value: string | string[]): string[] => (Array.isArray(value) ? value : [value]);

const isRecord = (value: unknown): value is Payload =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Copies the value at a plain key path (`a.b.c`) into `target`, keeping the objects on the way. */
function includePath(source: Payload, target: Payload, key: string): void {
  const items = parsePath(key);
  const names = items.flatMap((item) => ("key" in item ? [item.key] : []));
  if (names.length !== items.length || names.length === 0) {
    // Array paths (`a[].b`) keep the whole top-level field: close enough for a selector.
    const head = names[0];
    if (head !== undefined && Object.hasOwn(source, head)) target[head] = source[head];
    return;
  }
  let from: unknown = source;
  let to = target;
  for (const [position, name] of names.entries()) {
    if (!isRecord(from) || !Object.hasOwn(from, name)) return;
    if (position === names.length - 1) {
      to[name] = from[name];
      return;
    }
    from = from[name];
    if (!isRecord(to[name])) to[name] = {};
    to = to[name] as Payload;
  }
}

function includeKeys(payload: Payload, keys: string[]): Payload {
  const selected: Payload = {};
  for (const key of keys) includePath(payload, selected, key);
  return selected;
}

/** The payload as `with_payload` selects it; undefined when it is not requested. */
export function selectPayload(
  payload: Payload,
  selector: WithPayload,
  fallback: boolean,
): Payload | undefined {
  const chosen = selector ?? fallback;
  if (chosen === false) return undefined;
  if (chosen === true) return structuredClone(payload);
  if (Array.isArray(chosen)) return structuredClone(includeKeys(payload, chosen));
  if ("include" in chosen) return structuredClone(includeKeys(payload, asList(chosen.include)));
  const copy = structuredClone(payload);
  for (const key of asList(chosen.exclude)) deleteAt(copy, key);
  return copy;
}

/** The vectors as `with_vector` selects them: a bare array for a collection's single unnamed vector. */
export function selectVectors(collection: Collection, point: StoredPoint, selector: WithVector): unknown {
  if (!selector) return undefined;
  const names = selector === true ? Object.keys(point.vectors) : selector;
  // A point holding only the unnamed vector answers a bare array; otherwise a map ("" for the unnamed one).
  const onlyUnnamed = names.length === 1 && names[0] === DEFAULT_VECTOR && collection.unnamedVector;
  if (onlyUnnamed) return point.vectors[DEFAULT_VECTOR] ?? null;
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const vector = point.vectors[name];
    if (vector !== undefined) out[name] = structuredClone(vector);
  }
  return out;
}

/** A `Record` (retrieve/scroll answers); fields not requested are left out. */
export function toRecord(
  collection: Collection,
  point: StoredPoint,
  withPayload: WithPayload,
  withVector: WithVector,
  payloadByDefault: boolean,
): Record<string, unknown> {
  const payload = selectPayload(point.payload, withPayload, payloadByDefault);
  const vector = selectVectors(collection, point, withVector);
  return {
    id: point.id,
    ...(payload === undefined ? {} : { payload }),
    ...(vector === undefined ? {} : { vector }),
  };
}
