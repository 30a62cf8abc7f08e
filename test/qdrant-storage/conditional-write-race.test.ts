import { qdrantStorage } from "@engram/core/qdrant";
import { afterEach, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "../qdrant-double/index.js";
import { hookedQdrantClient, watching } from "../support/hooked-qdrant-client.js";
import { makeEdge, makeRecord, makeVersion, unit } from "../support/make-record.js";

let double: QdrantDouble | null = null;
afterEach(async () => {
  await double?.close();
  double = null;
});

const U = { userId: "u1" };

/**
 * Two adapters on one double: `port`, whose matching request (`when`) first runs the write `meanwhile`
 * holds, once, through `other`, as another process's write landing just before it.
 */
async function racing(when: (url: string, body: string) => boolean) {
  double = await startQdrantDouble();
  const url = double.url;
  const other = qdrantStorage({ url, collectionPrefix: "r_" });
  const race = { meanwhile: null as (() => Promise<void>) | null };
  const port = qdrantStorage({
    client: hookedQdrantClient(
      url,
      watching(async ({ url, body }) => {
        const run = race.meanwhile;
        if (run && when(url, body)) {
          race.meanwhile = null;
          await run();
        }
      }),
    ),
    collectionPrefix: "r_",
  });
  return { port, other, race };
}
const guardedUpsert = (_url: string, body: string) => body.includes("update_filter");

it("a conditional write never stores over a change that lands between its check and its write", async () => {
  // This process's requests: the other writer's write lands just before its guarded upsert.
  const { port, other, race } = await racing(guardedUpsert);
  const pending = makeRecord({ id: "m1", userId: "u1", status: "pending" });
  await port.write(U, { upsert: [{ record: pending, vector: null }] });
  const [read] = await port.get(U, ["m1"]);
  if (!read) throw new Error("m1 not stored");
  const ready = { ...read, status: "ready" as const };
  race.meanwhile = async () => {
    await other.write(U, { upsert: [{ record: ready, vector: unit(1, 0, 0, 0) }] });
  };
  const result = await port.write(U, {
    upsert: [{ record: { ...read, tier: "mid" }, vector: unit(0, 1, 0, 0) }],
    expect: [read],
  });
  expect(race.meanwhile).toBeNull();
  expect(result.conflicts).toEqual(["m1"]);
  expect(await port.get(U, ["m1"])).toEqual([ready]);
  // The vector stored is the other writer's, in the collection it created.
  expect(Array.from((await port.getVectors(U, ["m1"])).get("m1") ?? [])).toEqual([1, 0, 0, 0]);
  // Unguarded by a change meanwhile, the same write goes through.
  const [now] = await port.get(U, ["m1"]);
  if (!now) throw new Error("m1 gone");
  const moved = { ...now, tier: "mid" as const };
  expect(
    (await port.write(U, { upsert: [{ record: moved, vector: null }], expect: [now] })).conflicts,
  ).toEqual([]);
  expect(await port.get(U, ["m1"])).toEqual([moved]);
  await port.close();
  await other.close();
});

it("a conditional deletion never deletes a change that lands between its check and its delete", async () => {
  const { port, other, race } = await racing(
    (url, body) => url.endsWith("/points/batch?wait=true") && body.includes("has_id"),
  );
  await port.write(U, {
    upsert: [{ record: makeRecord({ id: "m1", userId: "u1", status: "pending" }), vector: null }],
  });
  const [read] = await port.get(U, ["m1"]);
  if (!read) throw new Error("m1 not stored");
  const ready = { ...read, status: "ready" as const };
  race.meanwhile = async () => {
    await other.write(U, { upsert: [{ record: ready, vector: unit(0, 0, 1) }] });
  };
  expect((await port.write(U, { deleteIds: ["m1"], expect: [read] })).conflicts).toEqual(["m1"]);
  expect(race.meanwhile).toBeNull();
  expect(await port.get(U, ["m1"])).toEqual([ready]);
  expect(Array.from((await port.getVectors(U, ["m1"])).get("m1") ?? [])).toEqual([0, 0, 1]);
  // Unchanged since read, the same deletion goes through.
  expect((await port.write(U, { deleteIds: ["m1"], expect: [ready] })).conflicts).toEqual([]);
  expect(await port.get(U, ["m1"])).toEqual([]);
  expect((await port.getVectors(U, ["m1"])).size).toBe(0);
  await port.close();
  await other.close();
});

it("a conditional write that loses the race leaves the winner's history row and writes no edge of the record", async () => {
  const { port, other, race } = await racing(guardedUpsert);
  const v1 = makeRecord({ id: "m1", userId: "u1" });
  await port.write(U, {
    upsert: [
      { record: v1, vector: null },
      { record: makeRecord({ id: "m2", userId: "u1" }), vector: null },
    ],
  });
  const [read] = await port.get(U, ["m1"]);
  if (!read) throw new Error("m1 not stored");
  // Both writers store version 2 of m1; the other one gets there first.
  const theirs = { ...read, text: "their edit", version: 2 };
  race.meanwhile = async () => {
    await other.write(U, {
      upsert: [{ record: theirs, vector: null }],
      history: [makeVersion({ memoryId: "m1", userId: "u1", version: 2, text: "their edit" })],
    });
  };
  const result = await port.write(U, {
    upsert: [{ record: { ...read, text: "my edit", version: 2 }, vector: null }],
    history: [makeVersion({ memoryId: "m1", userId: "u1", version: 2, text: "my edit" })],
    edges: [makeEdge("u1", "m1", "m2")],
    expect: [read],
  });
  expect(race.meanwhile).toBeNull();
  expect(result.conflicts).toEqual(["m1"]);
  expect(await port.get(U, ["m1"])).toEqual([theirs]);
  expect((await port.history(U, "m1")).map((v) => v.text)).toEqual(["their edit"]);
  expect(await port.edges(U, { from: "m1" })).toEqual([]);
  await port.close();
  await other.close();
});

it("a conditional write reads the records it expects once, with the rest of its checks, and reads back once", async () => {
  double = await startQdrantDouble();
  const reads: string[] = [];
  const port = qdrantStorage({
    client: hookedQdrantClient(
      double.url,
      watching(({ url }) => {
        const path = new URL(url).pathname;
        if (path.startsWith("/collections/r_memories/points") && !path.endsWith("/batch")) reads.push(path);
      }),
    ),
    collectionPrefix: "r_",
  });
  await port.write(U, { upsert: [{ record: makeRecord({ id: "m1", userId: "u1" }), vector: null }] });
  const [read] = await port.get(U, ["m1"]);
  if (!read) throw new Error("m1 not stored");
  reads.length = 0;
  const moved = { ...read, tier: "mid" as const };
  expect(
    (await port.write(U, { upsert: [{ record: moved, vector: null }], expect: [read] })).conflicts,
  ).toEqual([]);
  expect(reads).toHaveLength(2);
  expect(await port.get(U, ["m1"])).toEqual([moved]);
  await port.close();
});

it("on a server older than 1.16, which ignores update_filter, a conditional upsert is checked but sends none", async () => {
  double = await startQdrantDouble({ version: "1.15.2" });
  const port = qdrantStorage({ url: double.url, collectionPrefix: "r_" });
  await port.write(U, { upsert: [{ record: makeRecord({ id: "m1", userId: "u1" }), vector: null }] });
  const [read] = await port.get(U, ["m1"]);
  if (!read) throw new Error("m1 not stored");
  const moved = { ...read, tier: "mid" as const };
  expect(
    (await port.write(U, { upsert: [{ record: moved, vector: null }], expect: [read] })).conflicts,
  ).toEqual([]);
  expect(await port.get(U, ["m1"])).toEqual([moved]);
  // The check still refuses a write over a change it sees.
  expect(
    (await port.write(U, { upsert: [{ record: read, vector: null }], expect: [read] })).conflicts,
  ).toEqual(["m1"]);
  expect(double.requests.filter((r) => JSON.stringify(r.body ?? "").includes("update_filter"))).toEqual([]);
  await port.close();
});
