import { cubeKey, type Scope } from "../../model/index.js";
import { type FieldConditions, type MetadataValue, metadataConditions } from "../metadata-filter.js";
import type { MemoryFilter } from "../storage-port.js";
import { metadataTerm, ms, NUMERIC_METADATA } from "./payload.js";
import { pointIds } from "./point-id.js";

/** Qdrant's `Filter` (the subset this backend sends). */
export interface QFilter {
  must?: QCondition[];
  should?: QCondition[];
  must_not?: QCondition[];
}
export type QCondition =
  | { key: string; match: { value: string | number | boolean } | { any: string[] } }
  | { key: string; range: { gt?: number; gte?: number; lt?: number; lte?: number } }
  | { is_empty: { key: string } }
  | { has_id: string[] }
  | { nested: { key: string; filter: QFilter } }
  | QFilter;

export const match = (key: string, value: string | number | boolean): QCondition => ({
  key,
  match: { value },
});
export const anyOf = (key: string, values: readonly string[]): QCondition => ({
  key,
  match: { any: [...values] },
});
export const isEmpty = (key: string): QCondition => ({ is_empty: { key } });

/** The tenant condition every request carries first. */
export function scopeCondition(scope: Scope): QCondition {
  return match("user_id", scope.userId);
}

/** True when the filter selects nothing whatever is stored (an empty list), so no request is needed. */
export function selectsNothing(filter: MemoryFilter = {}): boolean {
  return [filter.ids, filter.kinds, filter.tiers, filter.roles, filter.cubes].some(
    (list) => list?.length === 0,
  );
}

function instant(iso: string, field: string): number {
  const t = ms(iso);
  if (t === null) throw new TypeError(`filter.${field} must be an ISO 8601 time, got ${JSON.stringify(iso)}`);
  return t;
}

/**
 * A memory filter as a Qdrant filter over the payload `filterPayload()` writes. The user's condition always
 * comes first; there is no way to build a filter without it. `ids` becomes `has_id` over point ids, so the
 * same filter serves the records and the vector collections.
 */
export function memoryFilter(scope: Scope, filter: MemoryFilter = {}): QFilter {
  const must: QCondition[] = [scopeCondition(scope)];
  if (filter.ids) must.push({ has_id: filter.ids.map(pointIds.memory) });
  if (filter.kinds) must.push(anyOf("kind", filter.kinds));
  if (filter.tiers) must.push(anyOf("tier", filter.tiers));
  if (filter.roles) must.push(anyOf("role", filter.roles));
  if (filter.cubes) must.push(anyOf("cube", filter.cubes.map(cubeKey)));
  if (filter.agentId !== undefined) must.push(match("agent_id", filter.agentId));
  if (filter.sessionId === null) must.push(isEmpty("session_id"));
  else if (filter.sessionId !== undefined) must.push(match("session_id", filter.sessionId));
  if (filter.key !== undefined) must.push(match("key", filter.key));
  if (filter.current) must.push(isEmpty("expired_ms"));
  if (filter.at !== undefined) {
    const at = instant(filter.at, "at");
    must.push({ key: "created_ms", range: { lte: at } });
    must.push({ should: [isEmpty("expired_ms"), { key: "expired_ms", range: { gt: at } }] });
  }
  if (filter.from !== undefined) must.push({ key: "valid_ms", range: { gte: instant(filter.from, "from") } });
  if (filter.to !== undefined) must.push({ key: "valid_ms", range: { lte: instant(filter.to, "to") } });
  for (const condition of metadataConditions(filter.metadata ?? {})) must.push(...metadataFilter(condition));
  return { must };
}

/** The field is one of these values: a match of its keywords (type-strict, the name taken literally). */
function oneOf(field: string, values: readonly MetadataValue[]): QCondition {
  // Qdrant refuses a `match.any` list that repeats an item.
  const terms = [...new Set(values.map((value) => metadataTerm(field, value)))];
  return terms.length === 1 ? match("meta", terms[0] as string) : anyOf("meta", terms);
}

/**
 * One metadata field's conditions: values through the `meta` keywords, ranges through `meta_num`, an
 * array of {k, v} for the numeric fields, as a nested filter so the name and the bound hold for one element.
 */
function metadataFilter({ field, anyOf: lists, noneOf, range }: FieldConditions): QCondition[] {
  const out: QCondition[] = lists.map((values) => oneOf(field, values));
  if (noneOf.length > 0) out.push({ must_not: [oneOf(field, noneOf)] });
  if (range) {
    out.push({
      nested: {
        key: NUMERIC_METADATA,
        filter: { must: [match("k", field), { key: "v", range: { ...range } }] },
      },
    });
  }
  return out;
}

/** Whether the filter compares a metadata field with a range (it reads `meta_num`, see payload.ts). */
export function hasMetadataRange(filter: MemoryFilter = {}): boolean {
  return metadataConditions(filter.metadata ?? {}).some((c) => c.range !== null);
}
