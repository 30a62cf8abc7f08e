import { EngramError } from "@engram/core";
import { type QdrantStorage, qdrantStorage } from "@engram/core/qdrant";
import { afterEach, describe, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "../qdrant-double/index.js";
import { stored, unit } from "../support/make-record.js";

let double: QdrantDouble | null = null;
let port: QdrantStorage | null = null;

afterEach(async () => {
  await port?.close();
  port = null;
  await double?.close();
  double = null;
});

// The settings of docs/qdrant.md, "Sizing for a large user base".
const settings = {
  shardNumber: 12, // shard_number: spread over the nodes, fixed after creation
  replicationFactor: 2, // replication_factor: copies of each shard
  writeConsistencyFactor: 2, // write_consistency_factor: replicas that must apply a write
  onDiskPayload: true, // on_disk_payload: payloads on disk, indexed fields stay in memory
};

/** Bodies of every create-collection request, by collection name. */
function creates(d: QdrantDouble): Map<string, { body: Record<string, unknown>; status: number }> {
  const out = new Map<string, { body: Record<string, unknown>; status: number }>();
  for (const r of d.requests) {
    const m = /^\/collections\/([^/]+)$/.exec(r.path);
    if (r.method === "PUT" && m) out.set(m[1] as string, { body: r.body as never, status: r.status });
  }
  return out;
}

describe("qdrantStorage collections settings", () => {
  for (const spec of ["1.19", "1.16"] as const) {
    it(`sends shard, replication, write consistency and payload placement in every create (${spec} spec)`, async () => {
      double = await startQdrantDouble({ spec });
      port = qdrantStorage({ url: double.url, collectionPrefix: "s_", collections: settings });
      // A vector makes the store create its per-dimension collection too.
      await port.write({ userId: "u" }, { upsert: [stored({ id: "m1", userId: "u" }, unit(1, 0, 0))] });
      const made = creates(double);
      expect([...made.keys()].sort()).toEqual(
        ["s_edges", "s_history", "s_jobs", "s_kv", "s_memories", "s_settings", "s_vectors_3"].sort(),
      );
      for (const [name, { body, status }] of made) {
        // The double answers 400/422 to a body that does not validate against the official spec.
        expect(status, name).toBe(200);
        expect(body, name).toMatchObject({
          shard_number: 12,
          replication_factor: 2,
          write_consistency_factor: 2,
          on_disk_payload: true,
        });
      }
    });
  }

  it("sends none of them when they are not set (the server's defaults apply)", async () => {
    double = await startQdrantDouble();
    port = qdrantStorage({ url: double.url, collectionPrefix: "d_" });
    await port.connect();
    for (const { body } of creates(double).values()) {
      expect(Object.keys(body).filter((k) => k.includes("shard") || k.includes("factor"))).toEqual([]);
      expect(body).not.toHaveProperty("on_disk_payload");
    }
  });

  it("refuses non-positive or fractional counts and a write consistency above the replicas", () => {
    const url = "http://localhost:6333";
    const cases: [object, string][] = [
      [{ shardNumber: 0 }, "collections.shardNumber"],
      [{ replicationFactor: 1.5 }, "collections.replicationFactor"],
      [{ writeConsistencyFactor: 2 }, "collections.writeConsistencyFactor"],
      [{ replicationFactor: 2, writeConsistencyFactor: 3 }, "collections.writeConsistencyFactor"],
      [{ shards: 2 }, "collections"],
    ];
    for (const [collections, path] of cases) {
      const error = (() => {
        try {
          qdrantStorage({ url, collections: collections as never });
        } catch (e) {
          return e as EngramError;
        }
        throw new Error(`accepted ${JSON.stringify(collections)}`);
      })();
      expect(EngramError.isInstance(error)).toBe(true);
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.message).toContain(`qdrantStorage: ${path}`);
    }
  });

  // The vector settings docs/qdrant.md recommends at scale: originals on disk, an int8 copy in memory, one graph
  // per tenant.
  const vectors = {
    onDisk: true,
    quantization: { type: "int8", quantile: 0.99, alwaysRam: true },
    hnsw: { m: 0, payloadM: 16, efConstruct: 100, onDisk: false },
  } as const;

  for (const spec of ["1.19", "1.16"] as const) {
    it(`sends on-disk vectors, scalar quantization and HNSW settings in the vector collection (${spec} spec)`, async () => {
      double = await startQdrantDouble({ spec });
      port = qdrantStorage({ url: double.url, collectionPrefix: "v_", vectors });
      await port.write({ userId: "u" }, { upsert: [stored({ id: "m1", userId: "u" }, unit(1, 0, 0))] });
      const made = creates(double);
      const vector = made.get("v_vectors_3");
      expect(vector?.status).toBe(200);
      expect(vector?.body).toEqual({
        vectors: { dense: { size: 3, distance: "Dot", on_disk: true } },
        hnsw_config: { m: 0, payload_m: 16, ef_construct: 100, on_disk: false },
        quantization_config: { scalar: { type: "int8", quantile: 0.99, always_ram: true } },
      });
      // The payload-only collections keep no vectors, so none of it goes there.
      expect(made.get("v_kv")?.body).not.toHaveProperty("quantization_config");
      const hits = await port.vectorSearch({ userId: "u" }, { vector: unit(1, 0, 0), k: 5 });
      expect(hits.map((h) => h.id)).toEqual(["m1"]);
    });
  }

  it("refuses vector settings Qdrant would not take", () => {
    const url = "http://localhost:6333";
    const cases: [object, string][] = [
      [{ quantization: { type: "int4" } }, "vectors.quantization.type"],
      [{ quantization: { type: "int8", quantile: 0.2 } }, "vectors.quantization.quantile"],
      [{ hnsw: { m: -1 } }, "vectors.hnsw.m"],
      [{ hnsw: { efConstruct: 2 } }, "vectors.hnsw.efConstruct"],
      [{ onDisk: "yes" }, "vectors.onDisk"],
      [{ binary: true }, "vectors"],
    ];
    for (const [settings, path] of cases) {
      let error: unknown = null;
      try {
        qdrantStorage({ url, vectors: settings as never });
      } catch (e) {
        error = e;
      }
      expect(EngramError.isInstance(error), JSON.stringify(settings)).toBe(true);
      expect((error as EngramError).message).toContain(`qdrantStorage: ${path}`);
    }
  });
});
