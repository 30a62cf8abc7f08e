// The code of docs/langchain.md, compiled with the workspace so the page cannot drift from the API.
import { createEngram } from "@engram/core";
import { EngramChatMessageHistory, EngramMemory, EngramRetriever } from "@engram/langchain";
import { engramAgentMiddleware } from "@engram/langchain/agent";
import { ConversationChain } from "@langchain/classic/chains";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatPromptTemplate, MessagesPlaceholder, PromptTemplate } from "@langchain/core/prompts";
import { RunnableWithMessageHistory } from "@langchain/core/runnables";
import { createAgent } from "langchain";

export async function history(model: BaseChatModel) {
  // #region history
  const engram = await createEngram();
  const chat = new RunnableWithMessageHistory({
    runnable: ChatPromptTemplate.fromMessages([
      ["system", "You are a friendly assistant."],
      new MessagesPlaceholder("history"),
      ["human", "{question}"],
    ]).pipe(model),
    getMessageHistory: (sessionId: string) =>
      new EngramChatMessageHistory({ engram, userId: "ada", sessionId }),
    inputMessagesKey: "question",
    historyMessagesKey: "history",
  });
  await chat.invoke(
    { question: "I just adopted a beagle called Biscuit." },
    { configurable: { sessionId: "monday" } },
  );
  // #endregion history
}

export async function classic(llm: BaseChatModel, engram: Awaited<ReturnType<typeof createEngram>>) {
  // #region classic
  const memory = new EngramMemory({ engram, userId: "ada", sessionId: "friday" });
  const chain = new ConversationChain({
    llm,
    prompt: PromptTemplate.fromTemplate("You are a friendly assistant.\n{memory}\nHuman: {input}\nAI:"),
    memory,
  });
  const { response } = await chain.invoke({ input: "What is my dog called?" });
  await memory.close(); // writes what is still queued
  // #endregion classic
  return response;
}

export async function retriever(engram: Awaited<ReturnType<typeof createEngram>>) {
  // #region retriever
  const retriever = new EngramRetriever({ engram, userId: "ada", k: 5 });
  const docs = await retriever.invoke("what pets do I have");
  // docs[0].pageContent, docs[0].metadata: { id, kind, tier, at, score, role, sessionId }
  // #endregion retriever
  return docs;
}

export async function agent(model: BaseChatModel, engram: Awaited<ReturnType<typeof createEngram>>) {
  // #region agent
  const memory = engramAgentMiddleware({ engram, toolResults: "summarize" });
  const agent = createAgent({
    model,
    tools: [],
    systemPrompt: "You are a friendly assistant.",
    middleware: [memory],
  });
  const result = await agent.invoke(
    { messages: [{ role: "user", content: "What is my dog called?" }] },
    { context: { userId: "ada", sessionId: "friday" } },
  );
  await memory.close();
  // #endregion agent
  return result.messages.at(-1)?.text;
}
