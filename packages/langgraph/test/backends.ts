import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram, type Engram } from "@engram/core";
import { qdrantStorage } from "@engram/core/qdrant";
import { hashEmbeddingModel } from "@engram/core/testing";
import { type QdrantDouble, startQdrantDouble } from "../../../test/qdrant-double/index.js";

/** A backend the LangGraph adapters are tested on; adding one to BACKENDS runs every suite on it. */
export interface TestBackend {
  readonly name: string;
  /** A fresh, empty engine; `dispose` closes it and removes what it stored. */
  createEngram(): Promise<{ engram: Engram; dispose(): Promise<void> }>;
}

const sqlite: TestBackend = {
  name: "sqlite",
  async createEngram() {
    const dir = mkdtempSync(join(tmpdir(), "engram-langgraph-"));
    const engram = await createEngram({
      path: join(dir, "engram.db"),
      embedder: hashEmbeddingModel(),
      background: false,
      tiers: false,
    });
    return {
      engram,
      async dispose() {
        await engram.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/** Calls the Qdrant REST API directly, outside the adapter, to drop what an engine left behind. */
async function rest(url: string, apiKey: string | undefined, method: string, path: string) {
  const response = await fetch(`${url}${path}`, { method, headers: apiKey ? { "api-key": apiKey } : {} });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as { result: unknown };
}

async function dropCollections(url: string, apiKey: string | undefined, prefix: string): Promise<void> {
  const listed = (await rest(url, apiKey, "GET", "/collections")).result as {
    collections: { name: string }[];
  };
  for (const { name } of listed.collections)
    if (name.startsWith(prefix)) await rest(url, apiKey, "DELETE", `/collections/${name}`);
}

/**
 * Qdrant: the protocol double, or a real server when QDRANT_URL is set (with QDRANT_API_KEY if it needs
 * one). Each engine gets a collection prefix of its own, dropped by `dispose`. The double starts with the
 * first open engine and stops with the last, so no server outlives a test file.
 */
function qdrantBackend(): TestBackend {
  const realUrl = process.env.QDRANT_URL?.replace(/\/+$/, "");
  const apiKey = realUrl ? process.env.QDRANT_API_KEY || undefined : undefined;
  let double: Promise<QdrantDouble> | null = null;
  let open = 0;
  let engines = 0;
  const run = `lg_${process.pid}_${Date.now().toString(36)}`;
  return {
    name: "qdrant",
    async createEngram() {
      open++;
      let url = realUrl;
      if (!url) {
        double ??= startQdrantDouble();
        url = (await double).url;
      }
      const prefix = `${run}_${++engines}_`;
      const base = url;
      const release = async () => {
        if (--open > 0 || !double) return;
        const started = double;
        double = null;
        await (await started).close();
      };
      let engram: Engram;
      try {
        engram = await createEngram({
          storage: qdrantStorage({
            url,
            collectionPrefix: prefix,
            retries: 2,
            ...(apiKey ? { apiKey } : {}),
          }),
          embedder: hashEmbeddingModel(),
          background: false,
          tiers: false,
        });
      } catch (error) {
        await release();
        throw error;
      }
      return {
        engram,
        async dispose() {
          try {
            await engram.close();
            await dropCollections(base, apiKey, prefix);
          } finally {
            await release();
          }
        },
      };
    },
  };
}

export const BACKENDS: readonly TestBackend[] = [sqlite, qdrantBackend()];
