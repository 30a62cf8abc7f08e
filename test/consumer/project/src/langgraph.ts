// The LangGraph checkpointer and store: a graph's thread survives a new engine, the store searches.
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { EngramCheckpointer, EngramMemoryState, EngramStore } from "@engram/langgraph";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { END, START, StateGraph } from "@langchain/langgraph";
import { check, tempDb } from "./check.js";

const path = tempDb("langgraph");
const config = { configurable: { thread_id: "t1", user_id: "ada" } };

function build(engram: Awaited<ReturnType<typeof createEngram>>) {
  return new StateGraph(EngramMemoryState)
    .addNode("model", async (state) => ({ messages: [new AIMessage(`reply ${state.messages.length}`)] }))
    .addEdge(START, "model")
    .addEdge("model", END)
    .compile({
      checkpointer: new EngramCheckpointer(engram),
      store: new EngramStore(engram, { userIdAt: 1 }),
    });
}

let engram = await createEngram({ path, embedder: hashEmbeddingModel(), background: false });
await build(engram).invoke({ messages: [new HumanMessage("hello")] }, config);
const store = new EngramStore(engram, { userIdAt: 1 });
await store.put(["user", "ada", "pets"], "dog", { text: "Ada's beagle is called Biscuit." });
await engram.close();

engram = await createEngram({ path, embedder: hashEmbeddingModel(), background: false });
const graph = build(engram);
const state = await graph.getState(config);
check(
  state.values.messages.length === 2,
  `the thread has 2 messages after reopening (${state.values.messages.length})`,
);
await graph.invoke({ messages: [new HumanMessage("again")] }, config);
const after = await graph.getState(config);
check(after.values.messages.length === 4, "the thread continues");
const hits = await new EngramStore(engram, { userIdAt: 1 }).search(["user", "ada", "pets"], {
  query: "beagle",
});
check(hits[0]?.key === "dog", "the store finds the item by query");
await engram.close();
console.log("langgraph: checkpointer kept the thread across engines; store search found the item");
