import { ValidationError } from "@engram/core";

const OPERATORS = ["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"] as const;
type Operator = (typeof OPERATORS)[number];

function isOperatorObject(value: unknown): value is Partial<Record<Operator, unknown>> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length > 0 &&
    Object.keys(value).every((k) => (OPERATORS as readonly string[]).includes(k))
  );
}

function compare(actual: unknown, op: Operator, expected: unknown): boolean {
  switch (op) {
    case "$eq":
      return actual === expected;
    case "$ne":
      return actual !== expected;
    case "$gt":
      return Number(actual) > Number(expected);
    case "$gte":
      return Number(actual) >= Number(expected);
    case "$lt":
      return Number(actual) < Number(expected);
    case "$lte":
      return Number(actual) <= Number(expected);
    case "$in":
      return Array.isArray(expected) && expected.includes(actual);
    case "$nin":
      return !Array.isArray(expected) || !expected.includes(actual);
  }
}

/** Refuses a filter whose `$` keys are not operators, instead of silently matching nothing. */
export function assertFilter(filter: Record<string, unknown>): void {
  for (const [field, condition] of Object.entries(filter)) {
    if (typeof condition !== "object" || condition === null || Array.isArray(condition)) continue;
    const bad = Object.keys(condition).find(
      (k) => k.startsWith("$") && !(OPERATORS as readonly string[]).includes(k),
    );
    if (bad) {
      throw new ValidationError(
        `EngramStore.search: filter.${field}: unknown operator ${bad}; use one of ${OPERATORS.join(", ")}`,
      );
    }
  }
}

/**
 * The filter semantics of LangGraph's InMemoryStore: each top-level field of the value equals the given
 * value, or satisfies every operator of an operator object (`{ score: { $gte: 3 } }`).
 */
export function matchesFilter(value: Record<string, unknown>, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([field, condition]) =>
    isOperatorObject(condition)
      ? Object.entries(condition).every(([op, expected]) => compare(value[field], op as Operator, expected))
      : value[field] === condition,
  );
}
