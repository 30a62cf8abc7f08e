import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "./index.js";
import { matchOperation } from "./spec-operations.js";
import { specFor } from "./start-qdrant-double.js";

const { spec, validator } = specFor("1.19");
let double: QdrantDouble;

beforeAll(async () => {
  double = await startQdrantDouble();
});
afterAll(async () => {
  await double.close();
});

const C = "/collections/c";
const POINT = (id: number | string, x: number) => ({
  id,
  vector: { dense: [x, 1 - x], bm25: { indices: [1, 2 + id.toString().length], values: [1, 0.5] } },
  payload: { user_id: "u1", n: x, at: "2024-01-01T00:00:00Z", tags: ["a"] },
});

/** Every implemented operation once, with the options an adapter uses. */
const EXCHANGES: [string, string, unknown?][] = [
  ["GET", "/"],
  [
    "PUT",
    C,
    { vectors: { dense: { size: 2, distance: "Cosine" } }, sparse_vectors: { bm25: { modifier: "idf" } } },
  ],
  ["GET", C],
  ["GET", "/collections"],
  ["GET", `${C}/exists`],
  [
    "PUT",
    `${C}/index?wait=true`,
    { field_name: "user_id", field_schema: { type: "keyword", is_tenant: true } },
  ],
  ["PUT", `${C}/index?wait=true`, { field_name: "n", field_schema: "float" }],
  ["GET", C],
  [
    "PUT",
    `${C}/points?wait=true`,
    { points: [POINT(1, 0.1), POINT("6f2c1c44-5f0e-4a43-9f57-0e7a1f0c2a11", 0.7)] },
  ],
  [
    "POST",
    `${C}/points/batch?wait=true`,
    {
      operations: [
        { upsert: { batch: { ids: [3], vectors: { dense: [[0.5, 0.5]] }, payloads: [{ n: 3 }] } } },
      ],
    },
  ],
  ["POST", `${C}/points`, { ids: [1, 3], with_payload: true, with_vector: true }],
  ["GET", `${C}/points/1`],
  ["POST", `${C}/points/scroll`, { limit: 1, with_vector: ["dense"] }],
  ["POST", `${C}/points/scroll`, { order_by: { key: "n", direction: "desc" }, limit: 5 }],
  [
    "POST",
    `${C}/points/count`,
    { filter: { must: [{ key: "user_id", match: { value: "u1" } }] }, exact: true },
  ],
  ["POST", `${C}/points/query`, { query: [1, 0], using: "dense", with_payload: true, with_vector: true }],
  [
    "POST",
    `${C}/points/query`,
    { query: { indices: [1], values: [1] }, using: "bm25", with_payload: { include: ["n"] } },
  ],
  [
    "POST",
    `${C}/points/query`,
    {
      prefetch: [
        { query: [1, 0], using: "dense" },
        { query: { indices: [1], values: [1] }, using: "bm25" },
      ],
      query: { fusion: "rrf" },
    },
  ],
  ["POST", `${C}/points/query/batch`, { searches: [{ query: [0, 1], using: "dense" }, { limit: 2 }] }],
  ["POST", `${C}/points/payload?wait=true`, { payload: { seen: true }, points: [1] }],
  ["PUT", `${C}/points/payload?wait=true`, { payload: { n: 9 }, filter: { must: [{ has_id: [3] }] } }],
  ["POST", `${C}/points/payload/delete?wait=true`, { keys: ["tags"], points: [1] }],
  ["POST", `${C}/points/payload/clear?wait=true`, { points: [3] }],
  ["PUT", `${C}/points/vectors?wait=true`, { points: [{ id: 1, vector: { dense: [0, 1] } }] }],
  ["POST", `${C}/points/vectors/delete?wait=true`, { points: [1], vector: ["bm25"] }],
  ["POST", `${C}/points/delete?wait=true`, { points: [3] }],
  ["DELETE", `${C}/index/n?wait=true`],
  ["DELETE", C],
];

describe("answers", () => {
  it("fit the spec's response schemas (closed objects) for every implemented operation", async () => {
    const problems: string[] = [];
    for (const [method, path, body] of EXCHANGES) {
      const response = await fetch(double.url + path, {
        method,
        headers: { "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const answer: unknown = await response.json();
      const matched = matchOperation(spec.operations, method, new URL(path, double.url).pathname);
      if (response.status !== 200 || !matched) {
        problems.push(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
        continue;
      }
      for (const error of validator.responseErrors(matched.operation, answer))
        problems.push(`${method} ${path}: ${error}`);
    }
    expect(problems).toEqual([]);
  });
});
