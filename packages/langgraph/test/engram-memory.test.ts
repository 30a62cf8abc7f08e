import { type Engram, EngramError, StorageError } from "@engram/core";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { END, START, StateGraph } from "@langchain/langgraph";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  EngramCheckpointer,
  EngramGraphMemory,
  EngramMemory,
  EngramMemoryState,
  EngramStore,
} from "../src/index.js";
import { BACKENDS } from "./backends.js";

const config = (user = "alice", thread = "t1") => ({ configurable: { thread_id: thread, user_id: user } });

/** The engine, but its first `add` is stored and then reported failed, as a store that timed out after committing. */
function losingFirstAdd(engram: Engram): Engram {
  let lost = 1;
  return Object.create(engram, {
    add: {
      value: async (input: Parameters<Engram["add"]>[0]) => {
        const result = await engram.add(input);
        if (lost-- > 0) throw new StorageError("the write timed out");
        return result;
      },
    },
  }) as Engram;
}

for (const backend of BACKENDS) {
  describe(`EngramGraphMemory (${backend.name})`, () => {
    let engram: Engram;
    let dispose: () => Promise<void>;
    let memory: EngramGraphMemory;
    beforeEach(async () => {
      ({ engram, dispose } = await backend.createEngram());
      memory = new EngramGraphMemory(engram);
      await engram.add({
        userId: "alice",
        messages: [{ role: "user", content: "I moved to Lisbon last spring" }],
      });
      await new EngramStore(engram, { userIdAt: 1, fields: ["text"] }).put(["memories", "alice"], "pet", {
        text: "Alice's cat is called Miso",
      });
    });
    afterEach(() => dispose());

    it("recalls the user's memory and store items for the latest user message, and nobody else's", async () => {
      const recalled = await memory.recall([new HumanMessage("where do I live, and my cat?")], config());
      expect(recalled).toContain("Lisbon");
      expect(recalled).toContain("Miso");
      expect(await memory.recall([new HumanMessage("where do I live?")], config("bob"))).not.toContain(
        "Lisbon",
      );
      expect(await memory.recall([], config())).toBe("");
    });

    it("leaves the turns the graph already sends out of the recent conversation, and keeps older ones", async () => {
      const adopted = new HumanMessage("I just adopted a beagle called Biscuit.");
      const answer = new AIMessage("Biscuit is a lovely name for a beagle.");
      await memory.remember([adopted, answer], config());
      const recalled = await memory.recall(
        [adopted, answer, new HumanMessage("What does he need every day?")],
        config(),
      );
      const recent = recalled.split("## Recent conversation")[1]?.split("</memory>")[0] ?? "";
      expect(recent).toContain("I moved to Lisbon last spring");
      expect(recent).not.toContain("Biscuit");
    });

    it("wrap: the model sees the memory as a leading system message, the state does not keep it", async () => {
      const seen: BaseMessage[][] = [];
      const node = memory.wrap(async (state: typeof EngramMemoryState.State) => {
        seen.push(state.messages);
        return { messages: [new AIMessage("You live in Lisbon.")] };
      });
      const graph = new StateGraph(EngramMemoryState)
        .addNode("model", node)
        .addEdge(START, "model")
        .addEdge("model", END)
        .compile({ checkpointer: new EngramCheckpointer(engram) });
      const result = await graph.invoke({ messages: [new HumanMessage("Where do I live?")] }, config());
      expect(SystemMessage.isInstance(seen[0]?.[0])).toBe(true);
      expect(seen[0]?.[0]?.text).toContain("Lisbon");
      expect(result.messages.map((m) => m.text)).toEqual(["Where do I live?", "You live in Lisbon."]);
      const turn = await engram.memories.list({ userId: "alice", sessionId: "t1", order: "asc" });
      expect(turn.map((m) => [m.role, m.text])).toEqual([
        ["user", "Where do I live?"],
        ["assistant", "You live in Lisbon."],
      ]);
    });

    it("recallNode fills state.memory; rememberNode writes only a finished turn", async () => {
      let calls = 0;
      const graph = new StateGraph(EngramMemoryState)
        .addNode("recall", memory.recallNode())
        .addNode("model", async (state) => {
          calls++;
          expect(state.memory).toContain("Miso");
          return { messages: [new AIMessage("Miso.")] };
        })
        .addNode("remember", memory.rememberNode())
        .addEdge(START, "recall")
        .addEdge("recall", "model")
        .addEdge("model", "remember")
        .addEdge("remember", END)
        .compile();
      await graph.invoke({ messages: [new HumanMessage("What is my cat called?")] }, config("alice", "t2"));
      expect(calls).toBe(1);
      expect(await engram.memories.list({ userId: "alice", sessionId: "t2" })).toHaveLength(2);
      const calling = new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "lookup", args: {} }] });
      await memory.remember([new HumanMessage("look it up"), calling], config("alice", "t3"));
      expect(await engram.memories.list({ userId: "alice", sessionId: "t3" })).toHaveLength(0);
    });

    it.each(["resumed from its checkpoint", "retried by its retry policy"] as const)(
      "a remember node run again on the same state (%s) stores the turn once",
      async (how) => {
        // The node fails after its write, and runs again on the same state.
        const remembering = new EngramGraphMemory(losingFirstAdd(engram));
        let answers = 0;
        const graph = new StateGraph(EngramMemoryState)
          .addNode("model", async () => ({ messages: [new AIMessage(`Lisbon, answer ${++answers}.`)] }))
          .addNode(
            "remember",
            remembering.rememberNode(),
            how === "retried by its retry policy"
              ? { retryPolicy: { maxAttempts: 2, initialInterval: 1, jitter: false, logWarning: false } }
              : {},
          )
          .addEdge(START, "model")
          .addEdge("model", "remember")
          .addEdge("remember", END)
          .compile({ checkpointer: new EngramCheckpointer(engram) });
        const run = config("alice", "t-again");
        const first = graph.invoke({ messages: [new HumanMessage("Where do I live?")] }, run);
        if (how === "resumed from its checkpoint") {
          await expect(first).rejects.toThrow("the write timed out");
          await graph.invoke(null, run);
        } else await first;
        expect(answers).toBe(1);
        const turn = await engram.memories.list({ userId: "alice", sessionId: "t-again", order: "asc" });
        expect(turn.map((m) => [m.role, m.text])).toEqual([
          ["user", "Where do I live?"],
          ["assistant", "Lisbon, answer 1."],
        ]);
      },
    );

    it("a wrapped model node resumed after its write stores the turn once when the model answers alike", async () => {
      const wrapping = new EngramGraphMemory(losingFirstAdd(engram), { items: 0 });
      let calls = 0;
      const graph = new StateGraph(EngramMemoryState)
        .addNode(
          "model",
          wrapping.wrap(async () => {
            calls++;
            return { messages: [new AIMessage("You live in Lisbon.")] };
          }),
        )
        .addEdge(START, "model")
        .addEdge("model", END)
        .compile({ checkpointer: new EngramCheckpointer(engram) });
      const run = config("alice", "t-wrap");
      await expect(graph.invoke({ messages: [new HumanMessage("Where do I live?")] }, run)).rejects.toThrow(
        "the write timed out",
      );
      const result = await graph.invoke(null, run);
      expect(calls).toBe(2);
      expect(result.messages.map((m) => m.text)).toEqual(["Where do I live?", "You live in Lisbon."]);
      const turn = await engram.memories.list({ userId: "alice", sessionId: "t-wrap", order: "asc" });
      expect(turn.map((m) => [m.role, m.text])).toEqual([
        ["user", "Where do I live?"],
        ["assistant", "You live in Lisbon."],
      ]);
    });

    it("refuses to run without a user, and says what to pass", async () => {
      const call = memory.recall([new HumanMessage("hi")], { configurable: { thread_id: "t" } });
      await expect(call).rejects.toSatisfy((e) => EngramError.isInstance(e) && e.code === "SCOPE_REQUIRED");
      await expect(memory.remember([], {})).rejects.toThrow(/configurable\.user_id/);
      expect(() => new EngramGraphMemory(engram, { budgetTokens: 0 })).toThrow(/budgetTokens/);
    });
  });
}

it("EngramMemory, the old name, is EngramGraphMemory until the next release", () => {
  expect(EngramMemory).toBe(EngramGraphMemory);
});
