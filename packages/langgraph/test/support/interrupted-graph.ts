/**
 * One process of the cross-process test: `node --conditions=@engram/source --import tsx interrupted-graph.ts
 * <db> start|resume`. `start` stores a fact through the store, stops at the interrupt and exits without
 * closing anything; `resume` opens the same file, resumes the thread and answers from the store.
 */
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import {
  Annotation,
  Command,
  END,
  interrupt,
  type LangGraphRunnableConfig,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { EngramCheckpointer, EngramStore } from "../../src/index.js";

const [path, phase] = process.argv.slice(2);
if (!path || (phase !== "start" && phase !== "resume"))
  throw new Error("usage: interrupted-graph.ts <db> start|resume");

const State = Annotation.Root({
  fact: Annotation<string>(),
  question: Annotation<string>(),
  answer: Annotation<string>(),
});

const userOf = (config: LangGraphRunnableConfig) => String(config.configurable?.user_id);

const engram = await createEngram({ path, embedder: hashEmbeddingModel(), background: false, tiers: false });
const graph = new StateGraph(State)
  .addNode("learn", async (state, config: LangGraphRunnableConfig) => {
    await config.store?.put(["memories", userOf(config)], "pet", { text: state.fact });
    return {};
  })
  .addNode("ask", () => ({ question: interrupt<string, string>("What do you want to know?") }))
  .addNode("reply", async (state, config: LangGraphRunnableConfig) => {
    const [hit] =
      (await config.store?.search(["memories", userOf(config)], { query: state.question, limit: 1 })) ?? [];
    return { answer: String(hit?.value.text ?? "nothing recalled") };
  })
  .addEdge(START, "learn")
  .addEdge("learn", "ask")
  .addEdge("ask", "reply")
  .addEdge("reply", END)
  .compile({
    checkpointer: new EngramCheckpointer(engram),
    store: new EngramStore(engram, { userIdAt: 1, fields: ["text"] }),
  });

const config = { configurable: { thread_id: "thread-1", user_id: "alice" } };
if (phase === "start") {
  await graph.invoke({ fact: "Alice's cat is called Miso" }, config);
  console.log(JSON.stringify({ pid: process.pid, next: (await graph.getState(config)).next }));
  // Stop mid-thread the hard way: no close, no flush.
  process.exit(0);
}
const before = await graph.getState(config);
const result = await graph.invoke(new Command({ resume: "what is the cat called?" }), config);
console.log(
  JSON.stringify({
    pid: process.pid,
    nextBefore: before.next,
    question: result.question,
    answer: result.answer,
  }),
);
await engram.close();
