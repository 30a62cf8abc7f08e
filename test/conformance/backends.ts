import { join } from "node:path";
import type { StoragePort } from "@engram/core";
import { memoryStorage } from "@engram/core/memory";
import { QdrantStorage } from "@engram/core/qdrant";
import { SqliteStorage } from "@engram/core/sqlite";
import type { StorageConformanceOptions } from "@engram/storage-conformance";
import { QdrantClient } from "@qdrant/js-client-rest";
import { type QdrantDouble, startQdrantDouble } from "../qdrant-double/index.js";
import { makeTempDir } from "../support/temp-dir.js";

/** A backend of this repository, as the exported conformance suite takes it. */
export type ConformanceBackend = StorageConformanceOptions & {
  destroy(port: StoragePort): Promise<void>;
};

/**
 * SQLite in memory by default: opening a file (WAL, migrations, fsync) costs ~70 ms a test, and file
 * behaviour is covered by the forget-bytes and crash tests. ENGRAM_CONFORMANCE_SQLITE_FILE=1 runs the
 * suite on a temp file per test instead.
 */
function sqliteBackend(onFile: boolean): ConformanceBackend {
  const cleanups = new Map<StoragePort, () => void>();
  return {
    name: "sqlite",
    async create() {
      if (!onFile) return new SqliteStorage({ path: ":memory:" });
      const dir = makeTempDir("engram-conformance-");
      const port = new SqliteStorage({ path: join(dir.path, "engram.db") });
      cleanups.set(port, dir.remove);
      return port;
    },
    async destroy(port) {
      await port.close();
      cleanups.get(port)?.();
      cleanups.delete(port);
    },
  };
}

/** Calls the Qdrant REST API directly (outside the adapter under test). */
async function rest(url: string, apiKey: string | undefined, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...(apiKey ? { "api-key": apiKey } : {}),
  };
  const response = await fetch(`${url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as { result: unknown };
}

async function collectionsWith(url: string, apiKey: string | undefined, prefix: string): Promise<string[]> {
  const listed = (await rest(url, apiKey, "GET", "/collections")).result as {
    collections: { name: string }[];
  };
  return listed.collections.map((c) => c.name).filter((name) => name.startsWith(prefix));
}

/**
 * Qdrant: the protocol double (one per suite, started on first use), or a real server when QDRANT_URL is
 * set (with QDRANT_API_KEY if it needs one). A suite's stores share one collection prefix; after each test
 * every point in those collections is deleted, so each test starts empty without paying for creating
 * collections and indexes again. The suite's collections are dropped at the end. Every store of a suite
 * is given one user-made `QdrantClient` of `@qdrant/js-client-rest`, as an application passes its own.
 */
function qdrantBackend(): ConformanceBackend {
  const realUrl = process.env.QDRANT_URL?.replace(/\/+$/, "");
  const apiKey = realUrl ? process.env.QDRANT_API_KEY || undefined : undefined;
  let double: Promise<QdrantDouble> | null = null;
  let client: QdrantClient | null = null;
  let suite = 0;
  let prefix = "";
  const url = async () => {
    if (realUrl) return realUrl;
    double ??= startQdrantDouble();
    return (await double).url;
  };
  return {
    name: "qdrant",
    async create() {
      if (!prefix) prefix = `conf_${process.pid}_${++suite}_${Date.now().toString(36)}_`;
      client ??= new QdrantClient({
        url: await url(),
        ...(apiKey ? { apiKey } : {}),
        headers: { "x-suite": "engram-conformance" },
        checkCompatibility: false,
      });
      const port = new QdrantStorage({ client, collectionPrefix: prefix, retries: 2 });
      await port.connect();
      return port;
    },
    async destroy(port) {
      await port.close();
      const base = await url();
      for (const name of await collectionsWith(base, apiKey, prefix)) {
        await rest(base, apiKey, "POST", `/collections/${name}/points/delete?wait=true`, { filter: {} });
      }
    },
    async teardown() {
      if (prefix) {
        const base = await url();
        for (const name of await collectionsWith(base, apiKey, prefix))
          await rest(base, apiKey, "DELETE", `/collections/${name}`);
      }
      prefix = "";
      client = null;
      const started = double;
      double = null;
      if (started) await (await started).close();
    },
  };
}

/** Every backend the suite runs against. Add one here and every spec file runs it. */
export const BACKENDS: readonly ConformanceBackend[] = [
  sqliteBackend(process.env.ENGRAM_CONFORMANCE_SQLITE_FILE === "1"),
  qdrantBackend(),
  {
    name: "memory",
    create: async () => memoryStorage(),
    destroy: (port) => port.close(),
  },
];
