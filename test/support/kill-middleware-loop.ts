/**
 * A child for the SIGKILL trials: `kill-middleware-loop.ts <db> <trial>`. Opens the store and prints "ready";
 * on a line from the parent it calls generateText through the Engram AI SDK middleware again and again (an instant mock
 * model), printing "acked <i>" as each call returns: the middleware has then accepted turn i. Killed by the
 * parent at a random moment, with the worker embedding turns and running tier jobs in the background.
 */
import { engramMiddleware } from "@engram/ai-sdk";
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { generateText, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";

const [db, trial] = process.argv.slice(2) as [string, string];
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
let calls = 0;
const model = new MockLanguageModelV4({
  doGenerate: async () => ({
    content: [{ type: "text", text: `Noted, trial ${trial} answer ${calls++}.` }],
    finishReason: { unified: "stop", raw: undefined },
    usage,
    warnings: [],
  }),
});
const engram = await createEngram({
  path: db,
  embedder: hashEmbeddingModel({ dimensions: 64 }),
  policy: { shortTermCapacity: 8, evictionBatch: 4 },
});
const memory = engramMiddleware({ engram, userId: "ada", sessionId: `trial-${trial}` });
const wrapped = wrapLanguageModel({ model, middleware: memory });
process.stdout.write("ready\n");
// Loaded (and the store open, its worker running) ahead of the trial: start when the parent says so.
await new Promise((resolve) => process.stdin.once("data", resolve));
for (let i = 0; i < 100_000; i++) {
  await generateText({ model: wrapped, prompt: `trial ${trial} turn ${i}: my sister moved to Porto` });
  process.stdout.write(`acked ${i}\n`);
}
