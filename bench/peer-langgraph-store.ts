// Dense search alone, as a LangGraph agent gets it: the InMemoryStore with the shared embedder through
// its `index` option. One namespace per conversation; the item key is the turn id.
import type { LocomoConversation } from "@engram/cli/locomo";
import type { Embedder } from "@engram/core";
import { InMemoryStore } from "@langchain/langgraph";
import { SharedEmbeddings } from "./locomo-embedder.js";
import { type PeerSystem, peerDocument } from "./peer-system.js";

export async function langgraphStorePeer(
  conversations: readonly LocomoConversation[],
  embedder: Embedder,
  dims: number,
): Promise<PeerSystem> {
  const store = new InMemoryStore({
    index: { dims, embeddings: new SharedEmbeddings(embedder), fields: ["text"] },
  });
  for (const c of conversations) {
    // One batch per conversation: the store embeds its puts together.
    await store.batch(
      c.turns.map((t) => ({
        namespace: ["locomo", c.sampleId],
        key: t.diaId,
        value: { text: peerDocument(t) },
      })),
    );
  }
  return {
    name: "LangGraph InMemoryStore",
    method: `@langchain/langgraph InMemoryStore({ index: { dims: ${dims}, embeddings, fields: ["text"] } }); put(["locomo", sample_id], dia_id, { text }); search(namespace, { query, limit: k }).`,
    async search(c, question, k) {
      const items = await store.search(["locomo", c.sampleId], { query: question, limit: k });
      return items.map((item) => item.key);
    },
    async close() {
      await store.stop();
    },
  };
}
