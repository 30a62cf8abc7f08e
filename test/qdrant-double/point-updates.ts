import type { Collection, Payload, StoredPoint } from "./collection.js";
import { type Filter, matchesFilter } from "./filter.js";
import { deleteAt, setAt } from "./payload-path.js";
import { normalizePointId, type PointId } from "./point-id.js";
import { pointsToUpsert, prepareVectors } from "./point-input.js";
import { pointNotFound } from "./qdrant-error.js";

/**
 * The point updates, each applied to a collection exactly as the server applies it. Validation of the
 * whole operation happens before the first change, except where the server itself applies partially
 * (payload/vector ops on an id list update the points that exist, then fail on the first missing id).
 */

interface Selector {
  points?: unknown[] | null;
  filter?: Filter | null;
}

/** `points` wins when both are given (`qdrant:lib/shard/src/update/mod.rs`). */
function selectPoints(
  collection: Collection,
  selector: Selector,
): { found: StoredPoint[]; missing?: PointId } {
  if (selector.points == null) {
    return {
      found: [...collection.points.values()].filter((point) => matchesFilter(selector.filter, point)),
    };
  }
  const found: StoredPoint[] = [];
  let missing: PointId | undefined;
  for (const raw of selector.points) {
    const id = normalizePointId(raw);
    const point = collection.get(id);
    if (point) found.push(point);
    else missing ??= id;
  }
  return missing === undefined ? { found } : { found, missing };
}

/** Applies `change` to the selected points; with an id list, a missing id fails after the others changed. */
function updateSelected(
  collection: Collection,
  selector: Selector,
  change: (point: StoredPoint) => void,
): void {
  const { found, missing } = selectPoints(collection, selector);
  for (const point of found) change(point);
  if (missing !== undefined) throw pointNotFound(missing);
}

export interface UpsertBody {
  points?: unknown[];
  batch?: { ids: unknown[] };
  update_filter?: Filter | null;
  update_mode?: "upsert" | "insert_only" | "update_only" | null;
}

export function upsertPoints(collection: Collection, body: UpsertBody): void {
  const points = pointsToUpsert(collection, body);
  const mode = body.update_mode ?? "upsert";
  for (const point of points) {
    const existing = collection.get(point.id);
    if (existing && mode === "insert_only") continue;
    if (!existing && mode === "update_only") continue;
    // `update_filter` only guards existing points; a new point is inserted regardless.
    if (existing && body.update_filter && !matchesFilter(body.update_filter, existing)) continue;
    collection.put(point);
  }
}

export function deletePoints(collection: Collection, body: Selector): void {
  for (const point of selectPoints(collection, body).found) collection.delete(point.id);
}

export function setPayload(
  collection: Collection,
  body: Selector & { payload: Payload; key?: string | null },
): void {
  updateSelected(collection, body, (point) => {
    const payload = structuredClone(body.payload);
    if (body.key) setAt(point.payload, body.key, payload);
    else Object.assign(point.payload, payload);
  });
}

export function overwritePayload(collection: Collection, body: Selector & { payload: Payload }): void {
  updateSelected(collection, body, (point) => {
    point.payload = structuredClone(body.payload);
  });
}

export function deletePayload(collection: Collection, body: Selector & { keys: string[] }): void {
  updateSelected(collection, body, (point) => {
    for (const key of body.keys) deleteAt(point.payload, key);
  });
}

export function clearPayload(collection: Collection, body: Selector): void {
  updateSelected(collection, body, (point) => {
    point.payload = {};
  });
}

export function updateVectors(
  collection: Collection,
  body: { points: { id: unknown; vector: unknown }[]; update_filter?: Filter | null },
): void {
  const updates = body.points.map((point) => ({
    id: normalizePointId(point.id),
    vectors: prepareVectors(collection, point.vector),
  }));
  for (const update of updates) {
    const point = collection.get(update.id);
    if (!point) throw pointNotFound(update.id);
    if (body.update_filter && !matchesFilter(body.update_filter, point)) continue;
    Object.assign(point.vectors, update.vectors);
  }
}

export function deleteVectors(collection: Collection, body: Selector & { vector: string[] }): void {
  for (const name of body.vector) collection.requireVectorName(name);
  updateSelected(collection, body, (point) => {
    for (const name of body.vector) delete point.vectors[name];
  });
}
