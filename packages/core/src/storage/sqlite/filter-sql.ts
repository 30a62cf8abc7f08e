import { cubeKey } from "../../model/index.js";
import { type FieldConditions, type MetadataValue, metadataConditions } from "../metadata-filter.js";
import type { MemoryFilter } from "../storage-port.js";

export interface SqlClause {
  sql: string;
  params: unknown[];
}

function inList(column: string, values: readonly unknown[], clauses: string[], params: unknown[]): void {
  clauses.push(values.length === 0 ? "0" : `${column} IN (${values.map(() => "?").join(",")})`);
  params.push(...values);
}

/**
 * Turns a filter into a WHERE clause over `memories` aliased `m`. The user scope is always the first
 * condition: there is no way to build a clause without it.
 */
export function filterToSql(userId: string, filter: MemoryFilter = {}): SqlClause {
  // With ids, the unique id index is the selective one; `+` keeps the planner off the user's indexes.
  const clauses = [filter.ids ? "+m.user_id = ?" : "m.user_id = ?"];
  const params: unknown[] = [userId];
  if (filter.ids) {
    // One bound JSON array: any number of ids, no limit on SQL variables.
    clauses.push("m.id IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(filter.ids));
  }
  if (filter.kinds) inList("m.kind", filter.kinds, clauses, params);
  if (filter.tiers) inList("m.tier", filter.tiers, clauses, params);
  if (filter.roles) inList("m.role", filter.roles, clauses, params);
  if (filter.cubes) inList("m.cube", filter.cubes.map(cubeKey), clauses, params);
  if (filter.agentId !== undefined) {
    clauses.push("m.agent_id = ?");
    params.push(filter.agentId);
  }
  if (filter.sessionId === null) clauses.push("m.session_id IS NULL");
  else if (filter.sessionId !== undefined) {
    clauses.push("m.session_id = ?");
    params.push(filter.sessionId);
  }
  if (filter.key !== undefined) {
    clauses.push("m.key = ?");
    params.push(filter.key);
  }
  if (filter.current) clauses.push("m.expired_at IS NULL");
  if (filter.at !== undefined) {
    clauses.push("m.created_at <= ? AND (m.expired_at IS NULL OR m.expired_at > ?)");
    params.push(filter.at, filter.at);
  }
  // The bound on coalesce(valid_from, created_at) is what memories_user_time can seek on (a row with a
  // valid_from has it as that value); the bound on valid_from itself keeps out rows without one.
  if (filter.from !== undefined) {
    clauses.push("coalesce(m.valid_from, m.created_at) >= ? AND m.valid_from >= ?");
    params.push(filter.from, filter.from);
  }
  if (filter.to !== undefined) {
    clauses.push("coalesce(m.valid_from, m.created_at) <= ? AND m.valid_from <= ?");
    params.push(filter.to, filter.to);
  }
  for (const condition of metadataConditions(filter.metadata ?? {})) metadataSql(condition, clauses, params);
  return { sql: clauses.join(" AND "), params };
}

/** A value's test on a json_each row: type-strict, as JSON tells a number, a string and a boolean apart. */
function valueTest(value: MetadataValue, params: unknown[]): string {
  if (typeof value === "boolean") return value ? "j.type = 'true'" : "j.type = 'false'";
  params.push(value);
  return typeof value === "number"
    ? "(j.type IN ('integer', 'real') AND j.value = ?)"
    : "(j.type = 'text' AND j.value = ?)";
}

/** One top-level field's conditions, matched by key (any characters) via json_each. */
function metadataSql(condition: FieldConditions, clauses: string[], params: unknown[]): void {
  const { field, anyOf, noneOf, range } = condition;
  const on = (tests: string) => `(SELECT 1 FROM json_each(m.metadata) j WHERE j.key = ? AND (${tests}))`;
  for (const values of anyOf) {
    params.push(field);
    clauses.push(`EXISTS ${on(values.map((v) => valueTest(v, params)).join(" OR "))}`);
  }
  if (noneOf.length > 0) {
    params.push(field);
    clauses.push(`NOT EXISTS ${on(noneOf.map((v) => valueTest(v, params)).join(" OR "))}`);
  }
  if (range) {
    params.push(field);
    const bounds = (["gt", "gte", "lt", "lte"] as const).filter((b) => range[b] !== undefined);
    const ops = { gt: ">", gte: ">=", lt: "<", lte: "<=" };
    for (const b of bounds) params.push(range[b]);
    clauses.push(
      `EXISTS ${on(["j.type IN ('integer', 'real')", ...bounds.map((b) => `j.value ${ops[b]} ?`)].join(" AND "))}`,
    );
  }
}

/** True when the filter needs more than the in-memory vector index can check (kind, tier, current). */
export function needsSqlPrefilter(filter: MemoryFilter = {}): boolean {
  const { kinds: _k, tiers: _t, current: _c, ...rest } = filter;
  return Object.values(rest).some((v) => v !== undefined);
}
