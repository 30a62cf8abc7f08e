import type { StoredPoint } from "./collection.js";
import { valuesAt } from "./payload-path.js";
import { normalizePointId, type PointId } from "./point-id.js";
import { QdrantError } from "./qdrant-error.js";

/**
 * Filter evaluation ported from Qdrant's reference local mode (`qdrant_client/local/payload_filters.py`,
 * checked against the server by its congruence tests): a missing field never matches `match`/`range`
 * (so `must_not` returns points without the field), arrays match when any element does, `except`
 * needs a non-null value.
 */

type Condition = Record<string, unknown>;
export interface Filter {
  must?: Condition | Condition[] | null;
  should?: Condition | Condition[] | null;
  must_not?: Condition | Condition[] | null;
  min_should?: { conditions: Condition[]; min_count: number } | null;
}

type Range = { lt?: unknown; lte?: unknown; gt?: unknown; gte?: unknown };

const list = (clause: Condition | Condition[] | null | undefined): Condition[] =>
  clause == null ? [] : Array.isArray(clause) ? clause : [clause];

const isEmptyValue = (value: unknown): boolean =>
  value === null || (Array.isArray(value) && value.length === 0);
const isNullValue = (value: unknown): boolean =>
  value === null || (Array.isArray(value) && value.some((element) => element === null));

function isEmpty(payload: unknown, key: string): boolean {
  const values = valuesAt(payload, key, false);
  return values === undefined || values.every(isEmptyValue);
}

function isNull(payload: unknown, key: string): boolean {
  return (valuesAt(payload, key, false) ?? []).some(isNullValue);
}

/** Words as the server's default word tokenizer sees them on a field without a text index. */
const tokens = (text: string): string[] =>
  (text.match(/[\p{L}\p{N}]+/gu) ?? []).map((token) => token.toLowerCase());

function matchValue(match: Record<string, unknown>, value: unknown): boolean {
  const equals = (other: unknown): boolean => value === other && value !== null;
  if ("value" in match) return equals(match.value);
  if ("any" in match) return (match.any as unknown[]).some(equals);
  if ("except" in match) return value !== null && !(match.except as unknown[]).some(equals);
  if (typeof value !== "string") return false;
  if ("text" in match) {
    const wanted = tokens(String(match.text));
    const have = new Set(tokens(value));
    return wanted.length > 0 && wanted.every((token) => have.has(token));
  }
  if ("text_any" in match) {
    const have = new Set(tokens(value));
    return tokens(String(match.text_any)).some((token) => have.has(token));
  }
  if ("phrase" in match) {
    const phrase = tokens(String(match.phrase)).join(" ");
    return phrase.length > 0 && ` ${tokens(value).join(" ")} `.includes(` ${phrase} `);
  }
  if ("prefix" in match) return value.startsWith(String(match.prefix));
  return false;
}

/** RFC 3339 or a naive datetime / date (naive means UTC, as the server reads it). */
export function parseDatetime(text: string): number | undefined {
  let normalised = text.trim().replace(" ", "T");
  if (/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(normalised)) normalised += "Z";
  const time = Date.parse(normalised);
  return Number.isNaN(time) ? undefined : time;
}

function inRange(range: Range, value: unknown): boolean {
  const bounds = [range.lt, range.lte, range.gt, range.gte].filter((bound) => bound != null);
  const datetime = bounds.some((bound) => typeof bound === "string");
  let actual: number | undefined;
  if (datetime) actual = typeof value === "string" ? parseDatetime(value) : undefined;
  else actual = typeof value === "number" ? value : undefined;
  if (actual === undefined) return false;
  const at = (bound: unknown): number =>
    typeof bound === "string" ? (parseDatetime(bound) ?? Number.NaN) : Number(bound);
  return (
    (range.lt == null || actual < at(range.lt)) &&
    (range.lte == null || actual <= at(range.lte)) &&
    (range.gt == null || actual > at(range.gt)) &&
    (range.gte == null || actual >= at(range.gte))
  );
}

function valuesCount(range: Range, values: unknown[] | undefined): boolean {
  const present = values ?? [];
  const counts = present.every((value) => value === null)
    ? [0]
    : present.map((value) => (value === null ? 0 : Array.isArray(value) ? value.length : 1));
  return counts.some((count) => inRange(range, count));
}

function nestedElements(payload: unknown, key: string): unknown[] {
  const path = key.length > 2 && key.endsWith("[]") ? key.slice(0, -2) : key;
  const elements: unknown[] = [];
  for (const value of valuesAt(payload, path, false) ?? []) {
    if (!Array.isArray(value)) continue;
    for (const element of value)
      if (typeof element === "object" && element !== null && !Array.isArray(element)) elements.push(element);
  }
  return elements;
}

function checkField(condition: Condition, payload: unknown): boolean {
  const key = String(condition.key);
  if (condition.values_count != null)
    return valuesCount(condition.values_count as Range, valuesAt(payload, key, false));
  if (condition.is_empty != null) return isEmpty(payload, key) === condition.is_empty;
  if (condition.is_null != null) return isNull(payload, key) === condition.is_null;
  const values = valuesAt(payload, key);
  if (values === undefined) return false;
  if (condition.match != null)
    return values.some((value) => matchValue(condition.match as Record<string, unknown>, value));
  if (condition.range != null) return values.some((value) => inRange(condition.range as Range, value));
  // Geo conditions are not implemented; the double says so instead of answering wrongly.
  throw new QdrantError(
    501,
    `Not implemented by the Qdrant double: field condition ${JSON.stringify(condition)}`,
  );
}

interface Subject {
  readonly id: PointId | undefined;
  readonly payload: unknown;
  /** The point's vectors by name (empty inside a nested filter). */
  readonly vectors: Readonly<Record<string, unknown>>;
}

/**
 * A `has_id` condition's ids, normalised once per condition rather than once per point checked: a
 * request's filter is not changed while it runs, and a scan of n points against m ids was n x m UUID parses.
 */
const hasIdSets = new WeakMap<Condition, ReadonlySet<PointId>>();
function hasIdSet(condition: Condition): ReadonlySet<PointId> {
  let ids = hasIdSets.get(condition);
  if (!ids) {
    ids = new Set((condition.has_id as unknown[]).map((id) => normalizePointId(id)));
    hasIdSets.set(condition, ids);
  }
  return ids;
}

function checkCondition(condition: Condition, subject: Subject): boolean {
  if ("key" in condition) return checkField(condition, subject.payload);
  if ("is_empty" in condition) return isEmpty(subject.payload, (condition.is_empty as { key: string }).key);
  if ("is_null" in condition) return isNull(subject.payload, (condition.is_null as { key: string }).key);
  if ("has_id" in condition) return subject.id !== undefined && hasIdSet(condition).has(subject.id);
  if ("has_vector" in condition) return Object.hasOwn(subject.vectors, String(condition.has_vector));
  if ("nested" in condition) {
    const nested = condition.nested as { key: string; filter: Filter };
    const elements = nestedElements(subject.payload, nested.key);
    return elements.some((element) =>
      checkFilter(nested.filter, { id: undefined, payload: element, vectors: {} }),
    );
  }
  return checkFilter(condition as Filter, subject);
}

function checkFilter(filter: Filter, subject: Subject): boolean {
  if (!list(filter.must).every((condition) => checkCondition(condition, subject))) return false;
  if (list(filter.must_not).some((condition) => checkCondition(condition, subject))) return false;
  const should = list(filter.should);
  if (should.length > 0 && !should.some((condition) => checkCondition(condition, subject))) return false;
  if (filter.min_should) {
    const matched = filter.min_should.conditions.filter((condition) =>
      checkCondition(condition, subject),
    ).length;
    if (matched < filter.min_should.min_count) return false;
  }
  return true;
}

/** Whether `point` passes `filter`; no filter (or null) passes everything. */
export function matchesFilter(filter: Filter | null | undefined, point: StoredPoint): boolean {
  if (!filter) return true;
  return checkFilter(filter, {
    id: point.id,
    payload: point.payload,
    vectors: point.vectors,
  });
}
