import { type QdrantStorage, qdrantStorage } from "@engram/core/qdrant";
import { afterEach, describe, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "../qdrant-double/index.js";
import { stored, unit } from "../support/make-record.js";

let double: QdrantDouble | null = null;
const ports: QdrantStorage[] = [];

afterEach(async () => {
  for (const port of ports.splice(0)) await port.close();
  await double?.close();
  double = null;
});

const u1 = { userId: "u1" };

async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

async function collections(url: string): Promise<string[]> {
  const listed = (await call(url, "GET", "/collections")).result as { collections: { name: string }[] };
  // The collections whose points carry a memory's filter fields: the records and one per vector size.
  return listed.collections.map((c) => c.name).filter((name) => /^r_(memories|vectors_\d+)$/.test(name));
}

describe("metadata ranges on Qdrant", () => {
  it("points written before numeric metadata was stored are brought up to date by the first range filter", async () => {
    double = await startQdrantDouble();
    const writer = qdrantStorage({ url: double.url, collectionPrefix: "r_" });
    ports.push(writer);
    await writer.write(u1, {
      upsert: [
        stored(
          { id: "a", userId: "u1", text: "lantern a", metadata: { priority: 1, topic: "work" } },
          unit(1, 0),
        ),
        stored({ id: "b", userId: "u1", text: "lantern b", metadata: { priority: 3 } }, unit(1, 0.2)),
        stored({ id: "c", userId: "u1", text: "lantern c", metadata: { priority: "3" } }, unit(1, 0.4)),
        stored({ id: "d", userId: "u1", text: "lantern d", metadata: {} }, null),
      ],
    });
    // As a store written by an earlier version holds them: no numeric metadata, no payload version.
    const names = await collections(double.url);
    expect(names.sort()).toEqual(["r_memories", "r_vectors_2"]);
    for (const name of names) {
      await call(double.url, "POST", `/collections/${name}/points/batch?wait=true`, {
        operations: [
          {
            delete_payload: {
              keys: ["meta_num", "meta_v"],
              filter: { must: [{ key: "user_id", match: { value: "u1" } }] },
            },
          },
        ],
      });
    }
    const reader = qdrantStorage({ url: double.url, collectionPrefix: "r_" });
    ports.push(reader);
    // Equality needs no upgrade: it reads the `meta` keywords every version wrote.
    expect(await reader.count(u1, { metadata: { priority: 3 } })).toBe(1);
    const before = double.requests.length;
    expect(
      (await reader.scan(u1, { filter: { metadata: { priority: { $gte: 2 } } } })).map((r) => r.id),
    ).toEqual(["b"]);
    const updates = double.requests.slice(before).filter((r) => r.path.endsWith("/points/batch"));
    expect(updates.length).toBe(names.length);
    const hits = await reader.vectorSearch(u1, {
      vector: unit(1, 0),
      k: 10,
      filter: { metadata: { priority: { $lt: 2 } } },
    });
    expect(hits.map((h) => h.id)).toEqual(["a"]);
    expect(await reader.count(u1, { metadata: { priority: { $gt: 0, $lte: 3 } } })).toBe(2);

    // Every point now carries its version: a later process's first range filter updates nothing.
    for (const name of names) {
      const scrolled = (
        await call(double.url, "POST", `/collections/${name}/points/scroll`, {
          filter: { must_not: [{ key: "meta_v", match: { value: 1 } }] },
          limit: 100,
        })
      ).result as { points: unknown[] };
      expect(scrolled.points).toEqual([]);
    }
    const later = qdrantStorage({ url: double.url, collectionPrefix: "r_" });
    ports.push(later);
    const mark = double.requests.length;
    expect(await later.count(u1, { metadata: { priority: { $gte: 1 } } })).toBe(2);
    expect(double.requests.slice(mark).some((r) => r.path.endsWith("/points/batch"))).toBe(false);
  });

  it("a write after the upgrade is stored with its numbers", async () => {
    double = await startQdrantDouble();
    const port = qdrantStorage({ url: double.url, collectionPrefix: "r_" });
    ports.push(port);
    expect(await port.count(u1, { metadata: { score: { $gt: 0.5 } } })).toBe(0);
    await port.write(u1, {
      upsert: [stored({ id: "x", userId: "u1", text: "lantern x", metadata: { score: 0.75 } }, unit(0, 1))],
    });
    expect(await port.count(u1, { metadata: { score: { $gt: 0.5 } } })).toBe(1);
    expect(await port.count(u1, { metadata: { score: { $gt: 0.75 } } })).toBe(0);
  });
});
