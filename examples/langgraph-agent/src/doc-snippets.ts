// The snippets of docs/langgraph.md, compiled with the workspace so the docs cannot drift from the API.
import { createEngram } from "@engram/core";
import { qdrantStorage } from "@engram/core/qdrant";
import { EngramCheckpointer, EngramMemory, EngramMemoryState, EngramStore } from "@engram/langgraph";
import { AIMessage } from "@langchain/core/messages";
import { END, type LangGraphRunnableConfig, START, StateGraph } from "@langchain/langgraph";

export async function checkpointerSnippet() {
  // --- checkpointer
  const engram = await createEngram({ path: ".engram/app.db" });
  const checkpointer = new EngramCheckpointer(engram);
  const graph = new StateGraph(EngramMemoryState)
    .addNode("model", async () => ({ messages: [new AIMessage("hi")] }))
    .addEdge(START, "model")
    .addEdge("model", END)
    .compile({ checkpointer });
  // The thread belongs to the user the config names; forget({ userId: "alice" }) erases it.
  await graph.invoke({ messages: [] }, { configurable: { thread_id: "t1", user_id: "alice" } });
  await checkpointer.threads("alice"); // ["t1"]
  await checkpointer.deleteThread("t1", { userId: "alice" });
  // --- end
  return graph;
}

export async function storeSnippet() {
  const engram = await createEngram({ path: ".engram/app.db" });
  // --- store
  // ["memories", userId]: the label at position 1 names the Engram user who owns the item.
  const store = new EngramStore(engram, { userIdAt: 1, fields: ["text"] });
  await store.put(["memories", "alice"], "pet", { text: "Alice's cat is called Miso", topic: "home" });
  await store.put(["memories", "alice"], "raw", { text: "kept, never embedded" }, false);
  const hits = await store.search(["memories", "alice"], {
    query: "cat name",
    filter: { topic: "home" },
    limit: 5,
  });
  const namespaces = await store.listNamespaces({ prefix: ["memories"], maxDepth: 2 });
  // The same item is an Engram memory of alice's:
  const found = await engram.search({ userId: "alice", query: "cat", kinds: ["item"] });
  // --- end
  return { hits, namespaces, found };
}

export async function memorySnippet() {
  const engram = await createEngram({ path: ".engram/app.db" });
  const callModel = async (state: typeof EngramMemoryState.State) => ({
    messages: [new AIMessage(`(${state.messages.length} messages in the prompt)`)],
  });
  // --- memory
  const memory = new EngramMemory(engram, { budgetTokens: 800 });
  // Either wrap the model node: it sees the recalled memory, the finished turn is written back...
  const wrapped = new StateGraph(EngramMemoryState)
    .addNode("model", memory.wrap(callModel))
    .addEdge(START, "model")
    .addEdge("model", END);
  // ...or use the two nodes around it, with the recalled text in state.memory.
  const explicit = new StateGraph(EngramMemoryState)
    .addNode("recall", memory.recallNode())
    .addNode("model", async (state, _config: LangGraphRunnableConfig) => callModel(state))
    .addNode("remember", memory.rememberNode())
    .addEdge(START, "recall")
    .addEdge("recall", "model")
    .addEdge("model", "remember")
    .addEdge("remember", END);
  // --- end
  return [wrapped, explicit];
}

export async function qdrantSnippet() {
  // --- qdrant
  // Same classes, same options: only the engine's storage changes.
  const engram = await createEngram({
    storage: qdrantStorage({
      url: process.env.QDRANT_URL ?? "http://localhost:6333",
      collectionPrefix: "myapp_",
    }),
  });
  const graph = new StateGraph(EngramMemoryState)
    .addNode("model", async () => ({ messages: [new AIMessage("hi")] }))
    .addEdge(START, "model")
    .addEdge("model", END)
    .compile({
      checkpointer: new EngramCheckpointer(engram),
      store: new EngramStore(engram, { userIdAt: 1 }),
    });
  await graph.invoke({ messages: [] }, { configurable: { thread_id: "t1", user_id: "alice" } });
  // --- end
  await engram.close();
  return graph;
}
