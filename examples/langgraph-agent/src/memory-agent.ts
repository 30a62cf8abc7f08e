import { randomUUID } from "node:crypto";
import type { Engram } from "@engram/core";
import { EngramCheckpointer, EngramGraphMemory, EngramStore } from "@engram/langgraph";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseStore } from "@langchain/langgraph-checkpoint";
import { createAgent, type ToolRuntime, tool } from "langchain";
import { z } from "zod";
import { engramMemoryMiddleware } from "./memory-middleware.js";

export const SYSTEM_PROMPT =
  "You are a helpful assistant with long-term memory. When the user tells you something worth keeping, " +
  "call remember_fact with it. Answer from the memory context when it is relevant.";

/** Saves a fact about the user as a store item under ["memories", userId]: an Engram memory of theirs. */
const rememberFact = tool(
  async ({ fact }, runtime: ToolRuntime) => {
    const userId = String(runtime.configurable?.user_id ?? "");
    // ToolRuntime types the store as @langchain/core's BaseStore; at run time it is the graph's store.
    const store = runtime.store as unknown as BaseStore;
    await store.put(["memories", userId], randomUUID(), { text: fact });
    return `Saved: ${fact}`;
  },
  {
    name: "remember_fact",
    description: "Save a fact about the user for later conversations.",
    schema: z.object({ fact: z.string().describe("The fact, as a full sentence") }),
  },
);

/** A LangGraph agent whose threads, store and memory all live in one Engram engine. */
export function createMemoryAgent(engram: Engram, model: BaseChatModel) {
  return createAgent({
    model,
    tools: [rememberFact],
    systemPrompt: SYSTEM_PROMPT,
    checkpointer: new EngramCheckpointer(engram),
    store: new EngramStore(engram, { userIdAt: 1, fields: ["text"] }),
    middleware: [engramMemoryMiddleware(new EngramGraphMemory(engram))],
  });
}
