import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "./index.js";

let double: QdrantDouble;

async function result<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(double.url + path, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { result: T; status: unknown };
  if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(json.status)}`);
  return json.result;
}

type Hit = { id: number | string; score: number; payload?: Record<string, unknown> };
const ids = (points: { id: unknown }[]) => points.map((point) => point.id);
const scroll = async (body: unknown) =>
  result<{ points: Hit[]; next_page_offset: unknown }>("POST", "/collections/c/points/scroll", body);
const query = async (body: unknown) =>
  (await result<{ points: Hit[] }>("POST", "/collections/c/points/query", body)).points;

const POINTS = [
  {
    id: 1,
    vector: { dense: [1, 0], text: { indices: [1, 2], values: [1, 1] } },
    payload: { city: "Berlin", n: 1, tags: ["a", "b"], at: "2024-01-01T00:00:00Z" },
  },
  {
    id: 2,
    vector: { dense: [0.9, 0.1], text: { indices: [1], values: [1] } },
    payload: {
      city: ["London", "Berlin"],
      n: 5,
      nested: [
        { k: "x", v: 1 },
        { k: "y", v: 2 },
      ],
    },
  },
  {
    id: 3,
    vector: { dense: [0, 1], text: { indices: [1, 3], values: [1, 1] } },
    payload: { city: null, n: 10, at: "2024-06-01T00:00:00" },
  },
  { id: 4, vector: { dense: [0.5, 0.5] }, payload: { city: [], nested: [{ k: "x", v: 2 }] } },
  { id: 5, vector: { dense: [-1, 0] }, payload: {} },
];

beforeAll(async () => {
  double = await startQdrantDouble();
});
beforeEach(async () => {
  double.reset();
  await result("PUT", "/collections/c", {
    vectors: { dense: { size: 2, distance: "Cosine" } },
    sparse_vectors: { text: { modifier: "idf" } },
  });
  await result("PUT", "/collections/c/points?wait=true", { points: POINTS });
});
afterAll(async () => {
  await double.close();
});

describe("filters", () => {
  const matching = async (filter: unknown) => ids((await scroll({ filter, limit: 100 })).points);

  it("matches any array element, and must_not keeps points without the field", async () => {
    expect(await matching({ must: [{ key: "city", match: { value: "Berlin" } }] })).toEqual([1, 2]);
    expect(await matching({ must_not: [{ key: "city", match: { value: "Berlin" } }] })).toEqual([3, 4, 5]);
    expect(await matching({ must: [{ key: "city", match: { any: ["London", "Paris"] } }] })).toEqual([2]);
  });

  it("requires a present non-null value for except, and tells is_empty from is_null", async () => {
    expect(await matching({ must: [{ key: "city", match: { except: ["Berlin"] } }] })).toEqual([2]);
    expect(await matching({ must: [{ is_empty: { key: "city" } }] })).toEqual([3, 4, 5]);
    expect(await matching({ must: [{ is_null: { key: "city" } }] })).toEqual([3]);
  });

  it("handles ranges over numbers and datetimes (naive as UTC), should, min_should and has_id", async () => {
    expect(await matching({ must: [{ key: "n", range: { gt: 1, lte: 10 } }] })).toEqual([2, 3]);
    expect(await matching({ must: [{ key: "at", range: { gte: "2024-03-01T00:00:00Z" } }] })).toEqual([3]);
    expect(await matching({ should: [{ key: "n", match: { value: 1 } }, { has_id: [5] }] })).toEqual([1, 5]);
    const minShould = {
      min_should: {
        conditions: [
          { key: "n", range: { gte: 5 } },
          { key: "city", match: { value: "Berlin" } },
        ],
        min_count: 2,
      },
    };
    expect(await matching(minShould)).toEqual([2]);
  });

  it("applies a nested filter to one array element at a time, and [] paths to every element", async () => {
    const sameElement = {
      must: [
        {
          nested: {
            key: "nested",
            filter: {
              must: [
                { key: "k", match: { value: "x" } },
                { key: "v", range: { gte: 2 } },
              ],
            },
          },
        },
      ],
    };
    expect(await matching(sameElement)).toEqual([4]);
    expect(await matching({ must: [{ key: "nested[].v", match: { value: 2 } }] })).toEqual([2, 4]);
  });
});

describe("scroll", () => {
  it("pages in id order with an inclusive offset and next_page_offset null at the end", async () => {
    const first = await scroll({ limit: 2 });
    expect([ids(first.points), first.next_page_offset]).toEqual([[1, 2], 3]);
    const last = await scroll({ limit: 3, offset: 3 });
    expect([ids(last.points), last.next_page_offset]).toEqual([[3, 4, 5], null]);
    expect(first.points[0]?.payload).toBeDefined();
  });

  it("orders by an indexed numeric field, one entry per value", async () => {
    await result("PUT", "/collections/c/index?wait=true", { field_name: "n", field_schema: "integer" });
    const ordered = await scroll({ order_by: { key: "n", direction: "desc" }, limit: 10 });
    expect(ids(ordered.points)).toEqual([3, 2, 1]);
  });
});

describe("query", () => {
  it("ranks dense Cosine hits, leaves the payload out by default, honours offset and score_threshold", async () => {
    const hits = await query({ query: [1, 0], using: "dense", limit: 3 });
    expect(ids(hits)).toEqual([1, 2, 4]);
    expect(hits[0]?.score).toBeCloseTo(1, 6);
    expect(hits[0]?.payload).toBeUndefined();
    expect(ids(await query({ query: [1, 0], using: "dense", limit: 2, offset: 1 }))).toEqual([2, 4]);
    expect(ids(await query({ query: [1, 0], using: "dense", score_threshold: 0.9 }))).toEqual([1, 2]);
  });

  it("weights sparse matches by IDF over the collection", async () => {
    // N = 3 points with a `text` vector; index 1 is in all 3, index 3 in 1.
    const idf = (n: number) => Math.log1p((3 - n + 0.5) / (n + 0.5));
    const hits = await query({ query: { indices: [1, 3], values: [1, 1] }, using: "text" });
    expect(ids(hits)).toEqual([3, 1, 2]);
    expect(hits[0]?.score).toBeCloseTo(idf(3) + idf(1), 9);
    expect(hits[1]?.score).toBeCloseTo(idf(3), 9);
  });

  it("fuses prefetches with RRF (k = 2 by default, or as given) and DBSF, with the filter in every prefetch", async () => {
    const prefetch = [
      { query: [1, 0], using: "dense", limit: 3 },
      { query: { indices: [3], values: [1] }, using: "text", limit: 3 },
    ];
    const rrf = await query({ prefetch, query: { fusion: "rrf" } });
    // dense: 1, 2, 4 ; sparse: 3 → 1 and 3 tie at 1/2, then 2 at 1/3, 4 at 1/4.
    expect(rrf.map((hit) => [hit.id, hit.score])).toEqual([
      [1, 0.5],
      [3, 0.5],
      [2, 1 / 3],
      [4, 0.25],
    ]);
    const k60 = await query({ prefetch, query: { rrf: { k: 60 } } });
    expect(k60[0]?.score).toBeCloseTo(1 / 60, 12);
    const dbsf = await query({ prefetch, query: { fusion: "dbsf" } });
    expect(dbsf.find((hit) => hit.id === 3)?.score).toBe(0.5);
    const filtered = await query({
      prefetch,
      query: { fusion: "rrf" },
      filter: { must: [{ key: "n", range: { gte: 5 } }] },
    });
    expect(ids(filtered).sort()).toEqual([2, 3]);
  });

  it("rejects what the server rejects", async () => {
    await expect(query({ prefetch: [{ query: [1, 0], using: "dense" }] })).rejects.toThrow(
      "A query is needed to merge the prefetches",
    );
    await expect(query({ query: { fusion: "rrf" }, using: "dense" })).rejects.toThrow(
      "Fusion queries cannot be combined with the 'using' field.",
    );
    await expect(query({ query: [1, 0, 0], using: "dense" })).rejects.toThrow(
      "Vector dimension error: expected dim: 2, got 3",
    );
  });
});

describe("payload selectors", () => {
  it("includes nested paths only and excludes keys", async () => {
    await result("PUT", "/collections/c/points?wait=true", {
      points: [{ id: 7, vector: {}, payload: { meta: { a: 1, b: 2 }, top: "t", other: 0 } }],
    });
    const [included] = await result<{ payload: unknown }[]>("POST", "/collections/c/points", {
      ids: [7],
      with_payload: { include: ["meta.a", "top", "missing.x"] },
    });
    expect(included?.payload).toEqual({ meta: { a: 1 }, top: "t" });
    const [excluded] = await result<{ payload: unknown }[]>("POST", "/collections/c/points", {
      ids: [7],
      with_payload: { exclude: ["meta.b", "other"] },
    });
    expect(excluded?.payload).toEqual({ meta: { a: 1 }, top: "t" });
  });
});

describe("writes", () => {
  it("replaces the whole point on upsert and lets points win over filter in set_payload", async () => {
    await result("PUT", "/collections/c/points?wait=true", {
      points: [{ id: 1, vector: { dense: [1, 1] }, payload: { only: true } }],
    });
    const [point] = await result<{ payload: unknown; vector: Record<string, unknown> }[]>(
      "POST",
      "/collections/c/points",
      { ids: [1], with_vector: true },
    );
    expect([point?.payload, Object.keys(point?.vector ?? {})]).toEqual([{ only: true }, ["dense"]]);
    await result("POST", "/collections/c/points/payload?wait=true", {
      payload: { marked: 1 },
      points: [2],
      filter: { must: [{ has_id: [3] }] },
    });
    expect(
      ids((await scroll({ filter: { must: [{ key: "marked", match: { value: 1 } }] } })).points),
    ).toEqual([2]);
  });

  it("applies batch operations in order and deletes by filter", async () => {
    await result("POST", "/collections/c/points/batch?wait=true", {
      operations: [
        { upsert: { points: [{ id: 9, vector: { dense: [1, 0] }, payload: { tmp: 1 } }] } },
        { overwrite_payload: { payload: { tmp: 2 }, points: [9] } },
        { delete_payload: { keys: ["n"], filter: { must: [{ key: "n", range: { gte: 5 } }] } } },
        { delete: { filter: { must: [{ key: "city", match: { value: "Berlin" } }] } } },
      ],
    });
    const left = await scroll({ limit: 100 });
    expect(ids(left.points)).toEqual([3, 4, 5, 9]);
    expect(left.points.map((point) => point.payload)).toEqual([
      { city: null, at: "2024-06-01T00:00:00" },
      POINTS[3]?.payload,
      {},
      { tmp: 2 },
    ]);
  });
});
