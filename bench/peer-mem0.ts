// mem0 OSS as a peer: its Memory with `infer: false` (storing a turn as given needs no LLM), the shared
// embedder through its LangChain provider and its local in-memory vector store, one Memory per
// conversation. mem0's own extraction (`infer: true`) needs an LLM and cannot run offline.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { LocomoConversation } from "@engram/cli/locomo";
import type { Embedder } from "@engram/core";
import { SharedEmbeddings } from "./locomo-embedder.js";
import { type PeerSystem, peerDocument, scopeOf } from "./peer-system.js";

type Mem0 = import("mem0ai/oss").Memory;

/** Counts and refuses every fetch while mem0 is in use: a network call would show in the report. */
export function guardFetch(run = "LoCoMo"): { attempts: string[]; restore: () => void } {
  const original = globalThis.fetch;
  const attempts: string[] = [];
  globalThis.fetch = async (input) => {
    attempts.push(String(input instanceof Request ? input.url : input));
    throw new Error(`bench: no network in the ${run} peer run`);
  };
  const restore = () => {
    globalThis.fetch = original;
  };
  return { attempts, restore };
}

export async function mem0Peer(
  conversations: readonly LocomoConversation[],
  embedder: Embedder,
  dims: number,
  dir: string,
): Promise<PeerSystem & { networkAttempts: string[] }> {
  // Read once at import: telemetry off, and its config file in the run's directory, not ~/.mem0.
  process.env.MEM0_TELEMETRY = "false";
  process.env.MEM0_DIR = join(dir, "mem0");
  mkdirSync(process.env.MEM0_DIR, { recursive: true });
  const guard = guardFetch();
  const { Memory } = await import("mem0ai/oss");
  const embeddings = new SharedEmbeddings(embedder);
  const memories = new Map<string, Mem0>();
  for (const [i, c] of conversations.entries()) {
    const memory = new Memory({
      version: "v1.1",
      embedder: { provider: "langchain", config: { model: embeddings } },
      vectorStore: {
        provider: "memory",
        config: { collectionName: `locomo_${i}`, dimension: dims, dbPath: ":memory:" },
      },
      // Required by the config; never called with infer: false (a dead loopback port if it were).
      llm: { provider: "openai", config: { apiKey: "unused", baseURL: "http://127.0.0.1:9/v1" } },
      disableHistory: true,
    });
    for (const t of c.turns) {
      await memory.add(peerDocument(t), { userId: scopeOf(c), infer: false, metadata: { dia_id: t.diaId } });
    }
    memories.set(c.sampleId, memory);
  }
  return {
    name: "mem0 OSS (infer: false)",
    method:
      'mem0ai/oss Memory per conversation: embedder provider "langchain" (the shared embedder), vectorStore "memory" (:memory:), history off, telemetry off; add(text, { userId, infer: false, metadata: { dia_id } }); search(question, { filters: { user_id }, topK: k, threshold: 0 }).',
    networkAttempts: guard.attempts,
    async search(c, question, k) {
      const memory = memories.get(c.sampleId) as Mem0;
      const found = await memory.search(question, {
        filters: { user_id: scopeOf(c) },
        topK: k,
        threshold: 0,
      });
      return found.results.map((r) => String(r.metadata?.dia_id));
    },
    async close() {
      guard.restore();
    },
  };
}
