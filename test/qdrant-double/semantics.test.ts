import { describe, expect, it } from "vitest";
import { ids, POINTS, result, scroll, useSemanticsFixture } from "./semantics-fixture.js";

useSemanticsFixture();

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
