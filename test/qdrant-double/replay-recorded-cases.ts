import { readFileSync } from "node:fs";
import { HANDLERS } from "./handlers.js";
import type { QdrantDouble } from "./index.js";
import { BASIC_COLLECTION, BASIC_POINTS, MULTIVEC_COLLECTION, MULTIVEC_POINTS } from "./recorded-fixtures.js";
import { loadSpec, type SpecOperation } from "./spec-operations.js";

/** One call from Qdrant's own REST tests (`qdrant:tests/openapi/**`), stored as data. */
export interface RecordedCase {
  readonly file: string;
  readonly line: number;
  readonly function: string;
  readonly api: string;
  readonly method: string;
  readonly path_params?: Record<string, string | number>;
  readonly path_params_nonliteral?: boolean;
  readonly query_params?: Record<string, unknown>;
  readonly body?: unknown;
  readonly expect?: { ok?: boolean; status?: number; error_contains?: string[]; error_equals?: string };
}

const here = (file: string): string => new URL(file, import.meta.url).pathname;

export function loadRecordedCases(): RecordedCase[] {
  return (
    JSON.parse(readFileSync(here("./spec/openapi-tests-requests.json"), "utf8")) as {
      requests: RecordedCase[];
    }
  ).requests;
}

export function findOperation(
  operations: readonly SpecOperation[],
  entry: RecordedCase,
): SpecOperation | undefined {
  return operations.find(
    (operation) => operation.method === entry.method && operation.template === entry.api,
  );
}

async function send(
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; error: string }> {
  const response = await fetch(url + path, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let error = "";
  try {
    error = (JSON.parse(text) as { status?: { error?: string } }).status?.error ?? "";
  } catch {
    error = text;
  }
  return { status: response.status, error };
}

export async function createFixtureCollection(
  url: string,
  multivec: boolean,
  name = "test_collection",
): Promise<void> {
  await send(url, "PUT", `/collections/${name}`, multivec ? MULTIVEC_COLLECTION : BASIC_COLLECTION);
  await send(url, "PUT", `/collections/${name}/points?wait=true`, {
    points: multivec ? MULTIVEC_POINTS : BASIC_POINTS,
  });
}

function agrees(expect: RecordedCase["expect"], status: number, error: string): boolean {
  if (!expect) return status < 300;
  if (expect.status !== undefined && expect.status !== status) return false;
  if (expect.ok === true && expect.status === undefined && status >= 300) return false;
  if (expect.ok === false && status < 300) return false;
  if (expect.error_equals !== undefined && expect.error_equals !== error) return false;
  return (expect.error_contains ?? []).every((part) => status < 300 || error.includes(part));
}

function pathOf(entry: RecordedCase): string | undefined {
  let path = entry.api;
  for (const name of path.match(/\{[^}]+\}/g) ?? []) {
    const key = name.slice(1, -1);
    const literal = entry.path_params?.[key];
    // A non-literal collection name is the test's fixture collection; other non-literal params are unknown.
    const value = literal ?? (key === "collection_name" ? "test_collection" : undefined);
    if (value === undefined) return undefined;
    path = path.replace(name, encodeURIComponent(String(value)));
  }
  const query = new URLSearchParams(
    Object.entries(entry.query_params ?? {}).map(([key, value]): [string, string] => [key, String(value)]),
  );
  return query.size > 0 ? `${path}?${query}` : path;
}

export interface ReplayStats {
  /** Recorded calls to endpoints the double implements. */
  readonly implemented: number;
  /** Of those, calls replayable from data alone (literal body when one is needed, known path params). */
  readonly replayed: number;
  /** Replayed calls whose outcome (status, error text) agrees with the recorded expectation. */
  readonly agreeing: number;
  readonly disagreeing: readonly string[];
}

/**
 * Replays the recorded calls test function by test function, in order, each function starting from
 * the basic fixture collection (the named-vector one for files about multivectors), and compares
 * outcomes with what Qdrant's tests assert.
 */
export async function replayRecordedCases(double: QdrantDouble): Promise<ReplayStats> {
  const operations = loadSpec(here("./spec/openapi-v1.19.x.json")).operations;
  const groups = new Map<string, RecordedCase[]>();
  for (const entry of loadRecordedCases()) {
    if (entry.file.includes("helpers/")) continue;
    const key = `${entry.file}::${entry.function}`;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  let implemented = 0;
  let replayed = 0;
  let agreeing = 0;
  const disagreeing: string[] = [];
  for (const entries of groups.values()) {
    double.reset();
    // A test that creates its own collection gets none from the fixture (it would answer 409).
    const createsOwn = entries.some(
      (entry) => entry.method === "PUT" && entry.api === "/collections/{collection_name}",
    );
    if (!createsOwn)
      await createFixtureCollection(double.url, entries[0]?.file.includes("multivec") === true);
    for (const entry of entries) {
      const operation = findOperation(operations, entry);
      if (!operation || !HANDLERS.has(operation.operationId)) continue;
      implemented += 1;
      const path = pathOf(entry);
      if (path === undefined || (operation.bodySchema !== undefined && entry.body === undefined)) continue;
      replayed += 1;
      const { status, error } = await send(double.url, entry.method, path, entry.body);
      if (agrees(entry.expect, status, error)) agreeing += 1;
      else
        disagreeing.push(
          `${entry.file}:${entry.line} ${entry.method} ${entry.api} → ${status} ${error.slice(0, 120)} (expected ${JSON.stringify(entry.expect)})`,
        );
    }
  }
  return { implemented, replayed, agreeing, disagreeing };
}
