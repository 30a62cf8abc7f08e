import { InMemoryStore } from "@langchain/langgraph-checkpoint";
import { EngramStore } from "../src/index.js";
import { BACKENDS } from "./backends.js";
import { storeConformance } from "./store-conformance/store-conformance.js";
import { WordHashEmbeddings } from "./word-hash-embeddings.js";

// The reference first: a test that InMemoryStore fails is a wrong test, not a store bug.
storeConformance({
  name: "InMemoryStore",
  async create() {
    const store = new InMemoryStore({
      index: { dims: 64, embeddings: new WordHashEmbeddings(), fields: ["$"] },
    });
    return { store, dispose: async () => {} };
  },
});

for (const backend of BACKENDS) {
  storeConformance({
    name: `EngramStore (${backend.name}, one owner)`,
    async create() {
      const { engram, dispose } = await backend.createEngram();
      return { store: new EngramStore(engram), dispose };
    },
  });
  storeConformance({
    name: `EngramStore (${backend.name}, owner from namespace)`,
    async create() {
      const { engram, dispose } = await backend.createEngram();
      return { store: new EngramStore(engram, { userIdAt: 1 }), dispose };
    },
  });
}
