import { createEngram, type Engram, EngramError } from "@engram/core";
import { type QdrantStorage, qdrantStorage } from "@engram/core/qdrant";
import { hashEmbeddingModel } from "@engram/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "../qdrant-double/index.js";
import { makeEdge, makeVersion, stored, unit } from "../support/make-record.js";

let double: QdrantDouble | null = null;
let engram: Engram | null = null;

afterEach(async () => {
  await engram?.close();
  engram = null;
  await double?.close();
  double = null;
});

async function start(options: Parameters<typeof startQdrantDouble>[0] = {}): Promise<QdrantDouble> {
  double = await startQdrantDouble(options);
  return double;
}

/** Every point of a user in every collection, read straight from the server (not through the adapter). */
async function pointsOf(d: QdrantDouble, userId: string): Promise<Record<string, number>> {
  const listed = (await (await fetch(`${d.url}/collections`)).json()) as {
    result: { collections: { name: string }[] };
  };
  const out: Record<string, number> = {};
  for (const { name } of listed.result.collections) {
    const response = await fetch(`${d.url}/collections/${name}/points/scroll`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        filter: { must: [{ key: "user_id", match: { value: userId } }] },
        limit: 10_000,
      }),
    });
    out[name] = ((await response.json()) as { result: { points: unknown[] } }).result.points.length;
  }
  return out;
}

async function writeUser(port: QdrantStorage, userId: string): Promise<void> {
  await port.write(
    { userId },
    {
      upsert: [
        stored({ id: `${userId}-1`, userId, text: `${userId} likes quinces` }, unit(1, 0, 0, 0)),
        stored({ id: `${userId}-2`, userId, text: `${userId} owns a canoe` }, unit(0, 1, 0, 0, 0, 0)),
      ],
      history: [makeVersion({ memoryId: `${userId}-1`, userId, version: 1 })],
      edges: [makeEdge(userId, `${userId}-1`, `${userId}-2`)],
      kvPut: [{ namespace: ["thread"], key: "cp", value: "{}" }],
      jobs: [{ id: `${userId}-job`, type: "embed", payload: {}, runAt: "2026-01-01T00:00:00.000Z" }],
    },
  );
}

describe("qdrantStorage on the protocol double", () => {
  it("forgetUser leaves no point of the user in any collection, and every other user's points", async () => {
    const d = await start();
    const port = qdrantStorage({ url: d.url, collectionPrefix: "f_" });
    await writeUser(port, "alice");
    await writeUser(port, "bob");
    const bobBefore = await pointsOf(d, "bob");
    // Two vector sizes: the user's points live in seven collections.
    expect(Object.values(await pointsOf(d, "alice")).filter((n) => n > 0)).toHaveLength(7);
    await port.forgetUser({ userId: "alice" });
    expect(Object.values(await pointsOf(d, "alice")).every((n) => n === 0)).toBe(true);
    expect(await pointsOf(d, "bob")).toEqual(bobBefore);
  });

  it("forgetUser also reaches a vector collection another process created after this one connected", async () => {
    const d = await start();
    const early = qdrantStorage({ url: d.url, collectionPrefix: "g_" });
    await early.connect();
    const late = qdrantStorage({ url: d.url, collectionPrefix: "g_" });
    await late.write(
      { userId: "alice" },
      { upsert: [stored({ id: "a1", userId: "alice" }, unit(1, 0, 0, 0, 0, 0, 0))] },
    );
    expect(await early.forgetUser({ userId: "alice" })).toMatchObject({ memories: 1 });
    expect(Object.values(await pointsOf(d, "alice")).every((n) => n === 0)).toBe(true);
  });

  it("keeps vector statistics' cached set across job-only writes, and re-reads only rewritten vectors after a memory write", async () => {
    const d = await start();
    const port = qdrantStorage({ url: d.url });
    const U = { userId: "u" };
    await port.write(U, {
      upsert: [stored({ id: "a", userId: "u" }, unit(1, 0)), stored({ id: "b", userId: "u" }, unit(0, 1))],
    });
    const query = { vector: unit(1, 0), k: 2 };
    const vectorScrolls = () =>
      d.requests.filter(
        (r) =>
          r.path.endsWith("/points/scroll") &&
          r.path.includes("vectors_2") &&
          (r.body as { with_vector?: unknown }).with_vector !== false,
      ).length;
    const vectorReads = () =>
      d.requests
        .filter((r) => r.method === "POST" && /vectors_2\/points$/.test(r.path))
        .map((r) => (r.body as { ids: string[] }).ids.length);
    expect((await port.vectorStats(U, query))?.mean).toBeCloseTo(0.5, 6);
    const afterFirst = vectorScrolls();
    await port.write(U, {
      jobs: [{ id: "visit", type: "visit", payload: {}, runAt: "2026-01-01T00:00:00.000Z" }],
    });
    await port.vectorStats(U, query);
    expect(vectorScrolls()).toBe(afterFirst);
    await port.write(U, { upsert: [stored({ id: "b", userId: "u" }, unit(1, 0))] });
    expect((await port.vectorStats(U, query))?.mean).toBeCloseTo(1, 6);
    // The ids are listed again, but only the rewritten point's vector is downloaded.
    expect(vectorScrolls()).toBe(afterFirst);
    expect(vectorReads()).toEqual([1]);
    await port.write(U, { upsert: [stored({ id: "c", userId: "u" }, unit(0, 1))], deleteIds: ["a"] });
    expect((await port.vectorStats(U, query))?.mean).toBeCloseTo(0.5, 6);
    expect(vectorReads()).toEqual([1, 1]);
  });

  it("sends only requests valid under the 1.16 spec, so a 1.16 server reads them as meant", async () => {
    const d = await start({ spec: "1.16", version: "1.16.3" });
    const port = qdrantStorage({ url: d.url });
    await writeUser(port, "alice");
    await port.textSearch({ userId: "alice" }, { text: "quinces", k: 5 });
    await port.vectorSearch(
      { userId: "alice" },
      { vector: unit(1, 0, 0, 0), k: 5, filter: { at: "2026-01-01T00:00:00.000Z" } },
    );
    await port.claimJobs({ now: "2026-01-02T00:00:00.000Z", limit: 5, leaseMs: 1000 });
    await port.completeJob("alice-job");
    await port.stats();
    expect(d.requests.filter((r) => r.status >= 400)).toEqual([]);
  });

  it("creates tenant indexes where the server supports them (1.11+) and plain keyword indexes before", async () => {
    const userIdIndexes = (d: QdrantDouble) =>
      d.requests.filter(
        (r) => r.path.endsWith("/index") && (r.body as { field_name: string }).field_name === "user_id",
      );
    const modern = await start();
    await qdrantStorage({ url: modern.url }).connect();
    expect(
      userIdIndexes(modern).map((r) => (r.body as { field_schema: unknown }).field_schema),
    ).toContainEqual({
      type: "keyword",
      is_tenant: true,
    });
    await modern.close();
    const old = await start({ version: "1.10.1", spec: "1.16" });
    expect(await qdrantStorage({ url: old.url }).connect()).toBe("1.10.1");
    expect(
      userIdIndexes(old).every((r) => (r.body as { field_schema: unknown }).field_schema === "keyword"),
    ).toBe(true);
  });

  it("lists users from the user_id index (facet), not by scrolling every point; scrolls on servers before 1.12", async () => {
    const d = await start();
    const port = qdrantStorage({ url: d.url });
    for (const userId of ["carol", "alice", "bob"]) await writeUser(port, userId);
    await port.write({ userId: "dave" }, { kvPut: [{ namespace: ["n"], key: "k", value: "v" }] });
    const before = d.requests.length;
    expect(await port.users()).toEqual(["alice", "bob", "carol", "dave"]);
    const sent = d.requests.slice(before);
    expect(sent.filter((r) => r.path.endsWith("/points/scroll"))).toEqual([]);
    expect(sent.filter((r) => r.path.endsWith("/facet")).map((r) => r.status)).toEqual([200, 200, 200]);
    await d.close();
    const old = await start({ version: "1.11.2", spec: "1.16" });
    const oldPort = qdrantStorage({ url: old.url });
    await writeUser(oldPort, "erin");
    expect(await oldPort.users()).toEqual(["erin"]);
    expect(old.requests.filter((r) => r.path.endsWith("/facet"))).toEqual([]);
  });

  it("refuses a server older than the minimum version with a clear error", async () => {
    const d = await start({ version: "1.9.7" });
    const error = (await qdrantStorage({ url: d.url })
      .connect()
      .catch((e: unknown) => e)) as EngramError;
    expect(error.code).toBe("UNSUPPORTED");
    expect(error.message).toMatch(/Qdrant 1\.9\.7 .* needs 1\.10\.0 or newer/);
  });

  it("sends the api key, and says so when the server refuses it", async () => {
    const d = await start({ apiKey: "s3cret" });
    await qdrantStorage({ url: d.url, apiKey: "s3cret" }).write(
      { userId: "u" },
      { kvPut: [{ namespace: ["n"], key: "k", value: "v" }] },
    );
    const wrong = qdrantStorage({ url: d.url, apiKey: "nope", retries: 0 });
    const error = (await wrong.count({ userId: "u" }).catch((e: unknown) => e)) as EngramError;
    expect(EngramError.isInstance(error)).toBe(true);
    expect(error.code).toBe("STORAGE");
    expect(error.message).toMatch(/apiKey/);
  });

  it("maps a server error to StorageError with the server's message", async () => {
    const d = await start();
    const port = qdrantStorage({ url: d.url, retries: 0 });
    await port.connect();
    // Remove the collections behind the adapter's back: the next read gets Qdrant's 404.
    await fetch(`${d.url}/collections/engram_memories`, { method: "DELETE" });
    const error = (await port.count({ userId: "u" }).catch((e: unknown) => e)) as EngramError;
    expect(error.code).toBe("STORAGE");
    expect(error.message).toMatch(/HTTP 404: Not found: Collection `engram_memories` doesn't exist!/);
    expect(error.details).toMatchObject({ status: 404 });
  });

  it("validates its options with messages that say what to pass", () => {
    expect(() => qdrantStorage({ url: "localhost" })).toThrow(
      /qdrantStorage: url: expected the Qdrant REST URL/,
    );
    expect(() => qdrantStorage({ url: "http://h:6333", collectionPrefix: "a/b" })).toThrow(
      /collectionPrefix/,
    );
  });

  it("never leases one job to two workers claiming at once", async () => {
    const d = await start();
    const a = qdrantStorage({ url: d.url, collectionPrefix: "q_" });
    const b = qdrantStorage({ url: d.url, collectionPrefix: "q_" });
    const jobs = Array.from({ length: 20 }, (_, i) => ({
      id: `j${i}`,
      type: "t",
      payload: {},
      runAt: "2026-01-01T00:00:00.000Z",
    }));
    await a.write({ userId: "u" }, { jobs });
    await b.connect();
    const claim = (port: QdrantStorage) =>
      port.claimJobs({ now: "2026-01-01T00:00:01.000Z", limit: 20, leaseMs: 60_000 });
    const [first, second] = await Promise.all([claim(a), claim(b)]);
    const ids = [...first, ...second].map((j) => j.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(0);
  });

  it("runs the engine: createEngram({ storage: qdrantStorage(...) }) adds and finds memories", async () => {
    const d = await start();
    engram = await createEngram({ storage: qdrantStorage({ url: d.url }), embedder: hashEmbeddingModel() });
    await engram.add({
      userId: "u1",
      messages: [
        { role: "user", content: "I adopted a ferret named Pickle" },
        { role: "assistant", content: "Pickle is a great name for a ferret" },
      ],
    });
    const results = await engram.search({ userId: "u1", query: "what is my ferret called?" });
    expect(results[0]?.text).toMatch(/Pickle/);
  });
});
