/**
 * Payload key paths as filters write them: `a.b`, `arr[].x`, `arr[0]`, `a."dotted.key"`.
 * Semantics follow Qdrant's reference local mode (`qdrant_client/local/payload_value_extractor.py`).
 */

type PathItem = { readonly key: string } | { readonly index: number } | { readonly wildcard: true };

// Filters evaluate the same few paths on every point: parse each once.
const parsed = new Map<string, readonly PathItem[]>();

export function parsePath(path: string): readonly PathItem[] {
  let items = parsed.get(path);
  if (!items) {
    items = parseUncached(path);
    if (parsed.size > 10_000) parsed.clear();
    parsed.set(path, items);
  }
  return items;
}

function parseUncached(path: string): PathItem[] {
  const items: PathItem[] = [];
  const pattern = /(?:^|\.)(?:"([^"]*)"|([^.[\]"]+))|\[(\d*)\]/gy;
  let found = pattern.exec(path);
  while (found) {
    if (found[1] !== undefined || found[2] !== undefined) items.push({ key: found[1] ?? found[2] ?? "" });
    else if (found[3] === "") items.push({ wildcard: true });
    else items.push({ index: Number(found[3]) });
    found = pattern.exec(path);
  }
  return items;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function collectLast(data: unknown, item: PathItem, flat: boolean, out: unknown[]): void {
  if ("key" in item) {
    if (!isRecord(data) || !Object.hasOwn(data, item.key)) return;
    const value = data[item.key];
    if (Array.isArray(value) && flat) for (const element of value) out.push(element);
    else out.push(value);
  } else if (Array.isArray(data)) {
    if ("wildcard" in item) for (const element of data) out.push(element);
    else if (item.index < data.length) out.push(data[item.index]);
  }
}

// Index-based recursion: filters call this for every point, so it allocates nothing but `out`.
function collect(data: unknown, items: readonly PathItem[], at: number, flat: boolean, out: unknown[]): void {
  const item = items[at];
  if (!item) return;
  if (at === items.length - 1) {
    collectLast(data, item, flat, out);
    return;
  }
  if ("key" in item) {
    if (isRecord(data) && Object.hasOwn(data, item.key)) collect(data[item.key], items, at + 1, flat, out);
  } else if (Array.isArray(data)) {
    if ("wildcard" in item) for (const element of data) collect(element, items, at + 1, flat, out);
    else if (item.index < data.length) collect(data[item.index], items, at + 1, flat, out);
  }
}

/**
 * The values at `path`, or undefined when there are none. With `flat`, an array at the end of the path
 * contributes its elements (a filter matches when any element does); without, the array itself.
 */
export function valuesAt(payload: unknown, path: string, flat = true): unknown[] | undefined {
  const out: unknown[] = [];
  collect(payload, parsePath(path), 0, flat, out);
  return out.length > 0 ? out : undefined;
}

/** Sets `value` at a nested `path` of `payload` (the `key` of set_payload), creating objects on the way. */
export function setAt(payload: Record<string, unknown>, path: string, value: Record<string, unknown>): void {
  let target: Record<string, unknown> = payload;
  for (const item of parsePath(path)) {
    if (!("key" in item)) return;
    const next = target[item.key];
    if (!isRecord(next)) target[item.key] = {};
    target = target[item.key] as Record<string, unknown>;
  }
  Object.assign(target, value);
}

/** Deletes the value at `path` (the `keys` of delete_payload); `a.b` removes `b` inside `a`. */
export function deleteAt(payload: Record<string, unknown>, path: string): void {
  const items = [...parsePath(path)];
  const last = items.pop();
  if (!last || !("key" in last)) return;
  const parents: unknown[] = [];
  collect(payload, items, 0, false, parents);
  const targets = items.length === 0 ? [payload] : parents;
  for (const target of targets) {
    if (isRecord(target)) delete target[last.key];
    if (Array.isArray(target)) for (const element of target) if (isRecord(element)) delete element[last.key];
  }
}
