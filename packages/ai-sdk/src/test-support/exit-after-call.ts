/**
 * A child process for the durability test: one model call through the middleware, then `process.exit`
 * at once, with no flush() and no close(). Usage: exit-after-call.ts DB_PATH generate|stream
 */
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { generateText, streamText, wrapLanguageModel } from "ai";
import { engramMiddleware } from "../index.js";
import { scriptedModel } from "./scripted-model.js";

const [path, mode] = process.argv.slice(2);
const engram = await createEngram({ path: path as string, embedder: hashEmbeddingModel() });
const memory = engramMiddleware({ engram, userId: "ada", sessionId: "s1" });
const { model } = scriptedModel(["Noted: your sister Maria lives in Porto."]);
const wrapped = wrapLanguageModel({ model, middleware: memory });
const prompt = "My sister Maria lives in Porto.";
if (mode === "stream") {
  const result = streamText({ model: wrapped, prompt });
  await result.text;
} else {
  await generateText({ model: wrapped, prompt });
}
process.stdout.write("answered\n");
process.exit(0);
