/**
 * A child process for the durability test: a generateText call and a streamText call through the
 * middleware, then `process.exit` at once, with no flush() and no close(). Usage: exit-after-call.ts DB_PATH
 */
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { generateText, streamText, wrapLanguageModel } from "ai";
import { engramMiddleware } from "../index.js";
import { scriptedModel } from "./scripted-model.js";

const [path] = process.argv.slice(2);
const engram = await createEngram({ path: path as string, embedder: hashEmbeddingModel() });
const memory = engramMiddleware({ engram, userId: "ada", sessionId: "s1" });
const { model } = scriptedModel(["Noted: Maria lives in Porto.", "Noted: you are a nurse."]);
const wrapped = wrapLanguageModel({ model, middleware: memory });
await generateText({ model: wrapped, prompt: "My sister Maria lives in Porto." });
await streamText({ model: wrapped, prompt: "I work as a nurse." }).text;
process.stdout.write("answered\n");
process.exit(0);
