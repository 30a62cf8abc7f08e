/**
 * A child process for the durability test: a turn saved by `EngramMemory` and one by the agent middleware,
 * then `process.exit` at once, with no flush() and no close(). Usage: exit-after-save.ts DB_PATH
 */
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent } from "langchain";
import { engramAgentMiddleware } from "../agent/index.js";
import { EngramMemory } from "../engram-memory.js";

const [path] = process.argv.slice(2);
const engram = await createEngram({ path: path as string, embedder: hashEmbeddingModel() });
const memory = new EngramMemory({ engram, userId: "ada", sessionId: "s1" });
await memory.saveContext(
  { input: "My sister Maria lives in Porto." },
  { output: "Noted: Maria lives in Porto." },
);
const middleware = engramAgentMiddleware({ engram, userId: "ada" });
const model = fakeModel().respond(new AIMessage("Noted: you are a nurse."));
const agent = createAgent({ model, tools: [], middleware: [middleware] });
await agent.invoke({ messages: [{ role: "user", content: "I work as a nurse." }] });
process.stdout.write("answered\n");
process.exit(0);
