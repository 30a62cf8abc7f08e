/**
 * Two adapter instances on one Qdrant (two processes): one connects first, then the other creates a
 * vector collection (a new embedding size). The first finds that collection's vectors on a miss.
 */
import { qdrantStorage } from "@engram/core/qdrant";
import { afterEach, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "../qdrant-double/index.js";
import { hookedQdrantClient, watching } from "../support/hooked-qdrant-client.js";
import { makeRecord, unit } from "../support/make-record.js";

let double: QdrantDouble | null = null;
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
  await double?.close();
  double = null;
});

const U = { userId: "u1" };

async function twoInstances() {
  double = await startQdrantDouble();
  const requests: string[] = [];
  const first = qdrantStorage({
    client: hookedQdrantClient(
      double.url,
      watching(({ url, method }) => {
        requests.push(`${method} ${new URL(url).pathname}`);
      }),
    ),
    collectionPrefix: "s_",
  });
  await first.connect();
  const second = qdrantStorage({ url: double.url, collectionPrefix: "s_" });
  closing.push(
    () => first.close(),
    () => second.close(),
  );
  return { first, second, requests };
}

it("an instance reads vectors from a collection another instance created after it connected", async () => {
  const { first, second, requests } = await twoInstances();
  await second.write(U, {
    upsert: [{ record: makeRecord({ id: "m1", userId: "u1" }), vector: unit(0, 1, 0) }],
  });
  expect(Array.from((await first.getVectors(U, ["m1"])).get("m1") ?? [])).toEqual([0, 1, 0]);
  expect((await first.vectorSearch(U, { vector: unit(0, 1, 0), k: 5 })).map((h) => h.id)).toEqual(["m1"]);
  expect((await first.stats(U)).vectors).toBe(1);
  // Once known, the collection is read without listing the server's collections again.
  requests.length = 0;
  expect((await first.getVectors(U, ["m1"])).has("m1")).toBe(true);
  expect(await first.vectorSearch(U, { vector: unit(0, 1, 0), k: 5 })).toHaveLength(1);
  expect(requests.filter((r) => r === "GET /collections")).toEqual([]);
});

it("a miss lists the collections again only when an id has no vector in those known", async () => {
  const { first, second, requests } = await twoInstances();
  await first.write(U, { upsert: [{ record: makeRecord({ id: "m1", userId: "u1" }), vector: unit(1, 0) }] });
  await second.write(U, {
    upsert: [{ record: makeRecord({ id: "m2", userId: "u1" }), vector: unit(1, 0, 0) }],
  });
  requests.length = 0;
  expect((await first.getVectors(U, ["m1"])).size).toBe(1);
  expect(requests.filter((r) => r === "GET /collections")).toEqual([]);
  const both = await first.getVectors(U, ["m1", "m2"]);
  expect([...both.keys()].sort()).toEqual(["m1", "m2"]);
  expect(requests.filter((r) => r === "GET /collections")).toHaveLength(1);
});

it("deleting a memory removes its vector from a collection another instance created", async () => {
  const { first, second } = await twoInstances();
  await second.write(U, {
    upsert: [{ record: makeRecord({ id: "m1", userId: "u1" }), vector: unit(0, 0, 1) }],
  });
  await first.write(U, { deleteIds: ["m1"] });
  expect((await second.getVectors(U, ["m1"])).size).toBe(0);
  expect((await second.stats(U)).vectors).toBe(0);
});
