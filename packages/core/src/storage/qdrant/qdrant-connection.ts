import type { Scope } from "../../model/index.js";
import type { ForgetReport } from "../storage-port.js";
import { Collections, checkServer, type Version } from "./collections.js";
import { scopeCondition } from "./filter.js";
import type { Points } from "./points.js";
import type { ResolvedOptions } from "./qdrant-options.js";
import { QdrantQueue } from "./qdrant-queue.js";
import { QdrantReads } from "./qdrant-reads.js";
import type { QdrantTransport } from "./qdrant-transport.js";
import { VectorStatsCache } from "./vector-stats.js";

/** What a store holds once connected to its server. */
export interface Connected {
  readonly version: Version;
  readonly collections: Collections;
  readonly reads: QdrantReads;
  readonly queue: QdrantQueue;
  readonly statsCache: VectorStatsCache;
}

/** Checks the server version (`GET /`), then creates whatever collection and index is missing. */
export async function connect(
  http: QdrantTransport,
  points: Points,
  url: string,
  options: ResolvedOptions,
): Promise<Connected> {
  const version = await checkServer(http, url);
  const collections = new Collections(
    http,
    options.prefix,
    version,
    options.collectionSettings,
    options.vectorSettings,
  );
  await collections.ensure();
  const statsCache = new VectorStatsCache(points, options.vectorStatsLimit);
  return {
    version,
    collections,
    statsCache,
    reads: new QdrantReads(points, collections, statsCache),
    queue: new QdrantQueue(points, collections.names.jobs),
  };
}

/** Deletes every point of the user in every collection of the store, counting them first for the report. */
export async function forgetUser(
  points: Points,
  collections: Collections,
  scope: Scope,
): Promise<ForgetReport> {
  const names = collections.names;
  const filter = { must: [scopeCondition(scope)] };
  const counted = new Map<string, number>();
  // Another process may have created a vector collection (a new embedding size) since this one connected.
  await collections.refresh();
  for (const name of collections.all()) {
    counted.set(name, await points.count(name, filter));
    await points.apply(name, [{ delete: { filter } }]);
  }
  const n = (name: string) => counted.get(name) ?? 0;
  return {
    memories: n(names.memories),
    history: n(names.history),
    edges: n(names.edges),
    kv: n(names.kv),
    jobs: n(names.jobs),
    erasure: {
      state: "delegated",
      reason:
        "Qdrant removed the points from every read; the server frees their bytes when it next optimises the segments",
    },
  };
}
