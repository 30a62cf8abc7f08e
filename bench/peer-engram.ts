// Engram in the peer table: the ingested store (tiers on) with default options, searched over message
// memories as `engram eval locomo` does, and its own context from `retrieve`.
import type { Embedder } from "@engram/core";
import { createEngram } from "@engram/core";
import { type PeerSystem, scopeOf } from "./peer-system.js";

export async function engramPeer(path: string, embedder: Embedder): Promise<PeerSystem> {
  const engram = await createEngram({ path, embedder, background: false });
  return {
    name: "Engram",
    method:
      'createEngram defaults (tiers on, flushed after each session at ingest); search({ userId, query, k, kinds: ["message"] }); context = retrieve({ userId, query, budgetTokens }).',
    async search(c, question, k) {
      const results = await engram.search({
        userId: scopeOf(c),
        query: question,
        limit: k,
        kinds: ["message"],
      });
      return results.map((r) => String(r.memory.metadata.diaId));
    },
    async context(c, question, budgetTokens) {
      const retrieved = await engram.retrieve({ userId: scopeOf(c), query: question, budgetTokens });
      return { text: retrieved.text, tokens: retrieved.context.tokens };
    },
    async close() {
      await engram.close();
    },
  };
}
