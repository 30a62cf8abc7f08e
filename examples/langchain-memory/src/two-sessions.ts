import type { Engram } from "@engram/core";
import { EngramChatMessageHistory, EngramMemory } from "@engram/langchain";
import { engramAgentMiddleware } from "@engram/langchain/agent";
import { ConversationChain } from "@langchain/classic/chains";
import { BufferMemory } from "@langchain/classic/memory";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { PromptTemplate } from "@langchain/core/prompts";
import { createAgent } from "langchain";

export const FIRST_SESSION =
  "Hi, I'm Ada. I just adopted a beagle called Biscuit, and I'm allergic to peanuts.";
export const SECOND_SESSION = "What's my dog's name, and what should I avoid eating?";
export const SYSTEM = "You are a friendly assistant. Answer in one or two sentences.";

/**
 * A classic chain: the first session keeps its history in EngramChatMessageHistory (so the turns become
 * the user's memory); the second, a new session, recalls them through EngramMemory.
 */
export async function classicChainSessions(options: { engram: Engram; llm: BaseChatModel; userId: string }) {
  const { engram, llm, userId } = options;
  const monday = new ConversationChain({
    llm,
    prompt: PromptTemplate.fromTemplate(`${SYSTEM}\n{history}\nHuman: {input}\nAI:`),
    memory: new BufferMemory({
      chatHistory: new EngramChatMessageHistory({ engram, userId, sessionId: "monday" }),
      memoryKey: "history",
    }),
  });
  const first = await monday.invoke({ input: FIRST_SESSION });
  const memory = new EngramMemory({ engram, userId, sessionId: "friday" });
  const friday = new ConversationChain({
    llm,
    prompt: PromptTemplate.fromTemplate(`${SYSTEM}\n{memory}\nHuman: {input}\nAI:`),
    memory,
  });
  const second = await friday.invoke({ input: SECOND_SESSION });
  await memory.close(); // writes what is still queued
  return { first: String(first.response), second: String(second.response) };
}

/** A langchain v1 agent with the memory middleware: two invocations on two threads, memory in between. */
export async function agentSessions(options: { engram: Engram; model: BaseChatModel; userId: string }) {
  const memory = engramAgentMiddleware({ engram: options.engram });
  const agent = createAgent({ model: options.model, tools: [], systemPrompt: SYSTEM, middleware: [memory] });
  const ask = (text: string, threadId: string) =>
    agent.invoke(
      { messages: [{ role: "user", content: text }] },
      { context: { userId: options.userId, sessionId: threadId } },
    );
  const first = await ask(FIRST_SESSION, "agent-monday");
  const second = await ask(SECOND_SESSION, "agent-friday");
  await memory.close();
  return { first: first.messages.at(-1)?.text ?? "", second: second.messages.at(-1)?.text ?? "" };
}
