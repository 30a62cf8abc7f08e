import { ValidationError } from "../errors/index.js";

/** A value a metadata condition compares with: equality is type-strict (`2` is not `"2"`). */
export type MetadataValue = string | number | boolean;

/**
 * A condition on one top-level metadata field: a value (equality), or operators that must all hold.
 * `$ne` and `$nin` also match memories without the field; every other operator needs the field. The
 * range operators compare numbers only: a field holding a string or a boolean is never in a range.
 */
export type MetadataCondition =
  | MetadataValue
  | {
      readonly $eq?: MetadataValue;
      readonly $ne?: MetadataValue;
      readonly $in?: readonly MetadataValue[];
      readonly $nin?: readonly MetadataValue[];
      readonly $gt?: number;
      readonly $gte?: number;
      readonly $lt?: number;
      readonly $lte?: number;
    };

/** Conditions on top-level metadata fields, all of which must hold. */
export type MetadataFilter = Readonly<Record<string, MetadataCondition>>;

/** Numeric bounds on one field, as Qdrant and SQL both spell a range. */
export interface MetadataRange {
  readonly gt?: number;
  readonly gte?: number;
  readonly lt?: number;
  readonly lte?: number;
}

/** One field's conditions, in the terms every backend translates. */
export interface FieldConditions {
  readonly field: string;
  /** The field holds one of these values (one list per `$eq`/`$in` given: each must hold). */
  readonly anyOf: readonly (readonly MetadataValue[])[];
  /** The field holds none of these values (or is absent). */
  readonly noneOf: readonly MetadataValue[];
  /** The field holds a number within these bounds; null when no range operator is given. */
  readonly range: MetadataRange | null;
}

const OPERATORS = new Set(["$eq", "$ne", "$in", "$nin", "$gt", "$gte", "$lt", "$lte"]);
const RANGE_OPERATORS: Record<string, keyof MetadataRange> = {
  $gt: "gt",
  $gte: "gte",
  $lt: "lt",
  $lte: "lte",
};
/** More values in one `$in` or `$nin` would make one filter a query plan of its own. */
const MAX_LIST = 1000;

function isValue(value: unknown): value is MetadataValue {
  return (
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  );
}

function refuse(at: readonly string[], problem: string): never {
  const path = at.join(".");
  const details: Record<string, unknown> = { path, at, problem };
  throw new ValidationError(`${path} ${problem}`, { details });
}

function valueAt(value: unknown, at: readonly string[]): MetadataValue {
  if (!isValue(value)) refuse(at, `must be a string, a finite number or a boolean; got ${describe(value)}`);
  return value;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return String(value);
  return typeof value;
}

const OPERATOR_LIST = [...OPERATORS].join(", ");

/**
 * Checks a metadata filter and reads it into per-field conditions; a `ValidationError` names the field or
 * operator at fault (an unknown `$` operator, a field name starting with `$`, a value that is not a
 * scalar, a range bound that is not a number, an empty `$in`), its details hold the path to the fault (`at`, e.g. `["filter", "n", "$gt"]`) and the `problem` there.
 */
export function metadataConditions(filter: unknown, path = "filter"): FieldConditions[] {
  if (typeof filter !== "object" || filter === null || Array.isArray(filter))
    refuse([path], `must be an object of field conditions; got ${describe(filter)}`);
  const out: FieldConditions[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    const at = [path, field];
    if (field.startsWith("$"))
      refuse(at, "is not a field name: operators go inside a field's condition, as in { n: { $gt: 1 } }");
    if (typeof condition !== "object" || condition === null) {
      out.push({ field, anyOf: [[valueAt(condition, at)]], noneOf: [], range: null });
      continue;
    }
    if (Array.isArray(condition))
      refuse(at, "is an array; to match any of several values, use { $in: [...] }");
    const entries = Object.entries(condition);
    if (entries.length === 0) refuse(at, `has no operator; pass a value or one of ${OPERATOR_LIST}`);
    const anyOf: MetadataValue[][] = [];
    const noneOf: MetadataValue[] = [];
    const range: { -readonly [K in keyof MetadataRange]: number } = {};
    for (const [op, operand] of entries) {
      const opAt = [...at, op];
      if (!OPERATORS.has(op)) refuse(opAt, `is not an operator; use one of ${OPERATOR_LIST}`);
      if (op === "$eq") anyOf.push([valueAt(operand, opAt)]);
      else if (op === "$ne") noneOf.push(valueAt(operand, opAt));
      else if (op === "$in" || op === "$nin") {
        if (!Array.isArray(operand)) refuse(opAt, `must be an array of values; got ${describe(operand)}`);
        if (operand.length > MAX_LIST) refuse(opAt, `holds ${operand.length} values; at most ${MAX_LIST}`);
        const values = operand.map((v, i) => valueAt(v, [...opAt, String(i)]));
        if (op === "$in") {
          if (values.length === 0) refuse(opAt, "is empty, which matches nothing; pass at least one value");
          anyOf.push(values);
        } else noneOf.push(...values);
      } else {
        if (typeof operand !== "number" || !Number.isFinite(operand))
          refuse(opAt, `must be a finite number (ranges compare numbers); got ${describe(operand)}`);
        range[RANGE_OPERATORS[op] as keyof MetadataRange] = operand;
      }
    }
    out.push({ field, anyOf, noneOf, range: Object.keys(range).length > 0 ? range : null });
  }
  return out;
}

/** Whether a memory's metadata passes the filter: the meaning both backends implement in storage. */
export function matchesMetadata(
  metadata: Readonly<Record<string, unknown>>,
  filter: MetadataFilter,
): boolean {
  return metadataMatcher(filter)(metadata);
}

/** matchesMetadata for one filter, read once for every memory it is applied to. */
export function metadataMatcher(
  filter: MetadataFilter,
): (metadata: Readonly<Record<string, unknown>>) => boolean {
  const conditions = metadataConditions(filter);
  return (metadata) =>
    conditions.every(({ field, anyOf, noneOf, range }) => {
      const has = Object.hasOwn(metadata, field);
      const value = metadata[field];
      if (noneOf.some((v) => has && v === value)) return false;
      if (anyOf.some((values) => !has || !values.some((v) => v === value))) return false;
      if (range === null) return true;
      if (!has || typeof value !== "number") return false;
      return (
        (range.gt === undefined || value > range.gt) &&
        (range.gte === undefined || value >= range.gte) &&
        (range.lt === undefined || value < range.lt) &&
        (range.lte === undefined || value <= range.lte)
      );
    });
}
