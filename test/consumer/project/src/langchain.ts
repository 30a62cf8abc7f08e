// LangChain memory: chat history of one session, then a new session's EngramMemory recalls it.
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { EngramChatMessageHistory, EngramMemory, EngramRetriever } from "@engram/langchain";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { check, tempDb } from "./check.js";

const engram = await createEngram({
  path: tempDb("langchain"),
  embedder: hashEmbeddingModel(),
  background: false,
});
const history = new EngramChatMessageHistory({ engram, userId: "ada", sessionId: "monday" });
await history.addMessages([
  new HumanMessage("I'm allergic to peanuts."),
  new AIMessage("Thanks, I'll keep that in mind."),
]);
const messages = await history.getMessages();
check(messages.length === 2, "the history returns its two messages");

const memory = new EngramMemory({ engram, userId: "ada", sessionId: "friday" });
const variables = await memory.loadMemoryVariables({ input: "What am I allergic to?" });
check(JSON.stringify(variables).includes("peanuts"), "EngramMemory recalls the other session");
await memory.saveContext({ input: "What am I allergic to?" }, { output: "Peanuts." });
await memory.close();

const documents = await new EngramRetriever({ engram, userId: "ada" }).invoke("peanuts");
check(
  documents.some((d) => d.pageContent.includes("peanuts")),
  "the retriever finds the message",
);
await engram.close();
console.log("langchain: history, memory and retriever work");
