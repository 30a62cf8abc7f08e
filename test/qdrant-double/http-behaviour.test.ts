import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "./index.js";

let double: QdrantDouble;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(double.url + path, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: { result?: unknown; status?: { error?: string } | string } | undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    text,
    json,
    result: json?.result,
    error: typeof json?.status === "object" ? json.status.error : undefined,
  };
}

const COLLECTION = {
  vectors: { dense: { size: 3, distance: "Cosine" } },
  sparse_vectors: { bm25: { modifier: "idf" } },
};

beforeAll(async () => {
  double = await startQdrantDouble();
});
afterEach(() => double.reset());
afterAll(async () => {
  await double.close();
});

describe("protocol", () => {
  it("rejects a malformed body with Qdrant's 400 error body and stores nothing", async () => {
    await call("PUT", "/collections/c", COLLECTION);
    const bad = await call("PUT", "/collections/c/points?wait=true", {
      points: [
        { id: 1, vector: { dense: [1, 0, 0] }, payload: {} },
        { id: 2, vector: { dense: "oops" } },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      status: { error: expect.stringMatching(/^Format error in JSON body: /) },
    });
    expect(typeof (bad.json as { time: unknown }).time).toBe("number");
    const count = await call("POST", "/collections/c/points/count", { exact: true });
    expect(count.json?.result).toEqual({ count: 0 });
  });

  it("answers constraint violations with 422 and unknown fields/typos with 400", async () => {
    const ef = await call("PUT", "/collections/c", {
      vectors: { size: 3, distance: "Dot" },
      hnsw_config: { ef_construct: 0 },
    });
    expect(ef.status).toBe(422);
    expect(ef.error).toMatch(/^Validation error in JSON body: \[hnsw_config\.ef_construct: value 0 invalid/);
    const typo = await call("PUT", "/collections/c", {
      vectors: { size: 3, distance: "Dot" },
      shard_numbr: 2,
    });
    expect(typo.status).toBe(400);
    expect((await call("POST", "/collections/c/points/scroll?wiat=true", {})).status).toBe(400);
  });

  it("counts points per value of an indexed key with facet, and refuses a key without an index", async () => {
    await call("PUT", "/collections/c", { vectors: {} });
    const points = ["u1", "u2", "u1", "u3"].map((user, id) => ({ id, vector: {}, payload: { user } }));
    await call("PUT", "/collections/c/points?wait=true", { points });
    const unindexed = await call("POST", "/collections/c/facet", { key: "user" });
    expect(unindexed.status).toBe(400);
    expect(unindexed.error).toContain('Index required but not found for "user"');
    await call("PUT", "/collections/c/index?wait=true", {
      field_name: "user",
      field_schema: { type: "keyword", is_tenant: true },
    });
    const all = await call("POST", "/collections/c/facet", { key: "user", exact: true });
    expect(all.result).toEqual({
      hits: [
        { value: "u1", count: 2 },
        { value: "u2", count: 1 },
        { value: "u3", count: 1 },
      ],
    });
    const limited = await call("POST", "/collections/c/facet", {
      key: "user",
      limit: 1,
      filter: { must: [{ key: "user", match: { any: ["u2", "u3"] } }] },
    });
    expect(limited.result).toEqual({ hits: [{ value: "u2", count: 1 }] });
    expect((await call("POST", "/collections/c/facet", { key: "user", limit: 0 })).status).toBe(422);
  });

  it("answers unknown paths and methods with an empty 404", async () => {
    expect((await call("GET", "/nope")).status).toBe(404);
    expect((await call("PATCH", "/collections/c/points/scroll", {})).status).toBe(404);
  });

  it("reports the version, 409 on a second create, 404 for a missing collection, false when deleting it", async () => {
    expect((await call("GET", "/")).json).toMatchObject({ version: "1.19.0" });
    expect((await call("PUT", "/collections/c", COLLECTION)).json?.result).toBe(true);
    const again = await call("PUT", "/collections/c", COLLECTION);
    expect([again.status, again.error]).toEqual([409, "Wrong input: Collection `c` already exists!"]);
    const missing = await call("POST", "/collections/x/points/scroll", {});
    expect([missing.status, missing.error]).toEqual([404, "Not found: Collection `x` doesn't exist!"]);
    expect((await call("DELETE", "/collections/x")).json?.result).toBe(false);
    expect((await call("GET", "/collections/c/exists")).json?.result).toEqual({ exists: true });
  });

  it("checks vector dimensions and names and normalises Cosine vectors", async () => {
    await call("PUT", "/collections/c", COLLECTION);
    const short = await call("PUT", "/collections/c/points", {
      points: [{ id: 1, vector: { dense: [1, 2] } }],
    });
    expect([short.status, short.error]).toEqual([
      400,
      "Wrong input: Vector dimension error: expected dim: 3, got 2",
    ]);
    const unknown = await call("PUT", "/collections/c/points", {
      points: [{ id: 1, vector: { image: [1, 2, 3] } }],
    });
    expect(unknown.error).toBe("Wrong input: Not existing vector name error: image");
    await call("PUT", "/collections/c/points?wait=true", {
      points: [{ id: 1, vector: { dense: [3, 0, 4] } }],
    });
    const point = await call("GET", "/collections/c/points/1");
    expect((point.result as { vector: { dense: number[] } }).vector.dense).toEqual([0.6, 0, 0.8]);
  });

  it("normalises UUIDs, rejects numeric strings with the server's message, reads ids in paths as numbers", async () => {
    await call("PUT", "/collections/c", COLLECTION);
    const upper = "urn:uuid:A0B1C2D3-0000-4000-8000-00000000000F";
    await call("PUT", "/collections/c/points?wait=true", {
      points: [
        { id: upper, vector: {}, payload: { k: 1 } },
        { id: 7, vector: {} },
      ],
    });
    const records = await call("POST", "/collections/c/points", {
      ids: ["a0b1c2d300004000800000000000000f", 7],
    });
    expect((records.result as { id: unknown }[]).map((record) => record.id)).toEqual([
      "a0b1c2d3-0000-4000-8000-00000000000f",
      7,
    ]);
    const numeric = await call("PUT", "/collections/c/points", { points: [{ id: "123", vector: {} }] });
    expect(numeric.status).toBe(400);
    expect(numeric.error).toContain(
      'value "123" is not a valid point ID, valid values are either an unsigned integer or a UUID',
    );
    expect((await call("GET", "/collections/c/points/7")).status).toBe(200);
    expect((await call("GET", "/collections/c/points/8")).error).toBe("Not found: No point with id 8 found");
  });

  it("answers completed with wait=true and acknowledged otherwise, applying the write either way", async () => {
    await call("PUT", "/collections/c", COLLECTION);
    const waited = await call("PUT", "/collections/c/points?wait=true", { points: [{ id: 1, vector: {} }] });
    const unwaited = await call("PUT", "/collections/c/points", { points: [{ id: 2, vector: {} }] });
    expect((waited.result as { status: string }).status).toBe("completed");
    expect((unwaited.result as { status: string }).status).toBe("acknowledged");
    expect((await call("POST", "/collections/c/points/count", {})).json?.result).toEqual({ count: 2 });
  });

  it("records every request with its status", async () => {
    await call("GET", "/collections/none");
    expect(double.requests.at(-1)).toEqual({
      method: "GET",
      path: "/collections/none",
      query: {},
      body: undefined,
      status: 404,
    });
  });
});

describe("api key", () => {
  it("answers 401 without a key and 403 with a wrong one, in plain text; the root stays open", async () => {
    const secured = await startQdrantDouble({ apiKey: "secret" });
    try {
      const get = (headers: Record<string, string>) => fetch(`${secured.url}/collections`, { headers });
      const missing = await get({});
      expect([missing.status, await missing.text()]).toEqual([
        401,
        "Must provide an API key or an Authorization bearer token",
      ]);
      const wrong = await get({ "api-key": "nope" });
      expect([wrong.status, await wrong.text()]).toEqual([403, "Invalid API key or JWT"]);
      expect((await get({ "api-key": "secret" })).status).toBe(200);
      expect((await get({ authorization: "Bearer secret" })).status).toBe(200);
      expect((await fetch(`${secured.url}/`)).status).toBe(200);
    } finally {
      await secured.close();
    }
  });
});

describe("compatibility floor", () => {
  it("with the 1.16 spec, rejects fields an older server would silently ignore", async () => {
    const old = await startQdrantDouble({ spec: "1.16", version: "1.16.3" });
    try {
      const response = await fetch(`${old.url}/collections/c`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ vectors: { size: 2, distance: "Dot", memory: "cold" } }),
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("must NOT have additional properties `memory`");
      expect(await (await fetch(`${old.url}/`)).json()).toMatchObject({ version: "1.16.3" });
    } finally {
      await old.close();
    }
  });
});
