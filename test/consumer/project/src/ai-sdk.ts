// The AI SDK middleware around a mock model (ai/test): the second call's prompt holds what the first stored.
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { engramMiddleware } from "@engram/ai-sdk";
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { generateText, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { check, tempDb } from "./check.js";

const prompts: LanguageModelV4Prompt[] = [];
const mock = new MockLanguageModelV4({
  doGenerate: async (options) => {
    prompts.push(options.prompt);
    return {
      content: [{ type: "text", text: "Noted." }],
      finishReason: { unified: "stop", raw: undefined },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 2, text: 2, reasoning: undefined },
      },
      warnings: [],
    };
  },
});

const engram = await createEngram({
  path: tempDb("ai-sdk"),
  embedder: hashEmbeddingModel(),
  background: false,
});
const memory = engramMiddleware({ engram, userId: "ada" });
const model = wrapLanguageModel({ model: mock, middleware: memory });
await generateText({
  model,
  prompt: "I just adopted a beagle called Biscuit.",
  providerOptions: { engram: { sessionId: "monday" } },
});
const second = await generateText({
  model,
  prompt: "What is my dog called?",
  providerOptions: { engram: { sessionId: "friday" } },
});
await memory.close();
const system = (prompts[1] ?? []).flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n");
check(second.text === "Noted.", "the model's answer comes back");
check(system.includes("Biscuit"), "the second call's system prompt recalls the first turn");
await engram.close();
console.log("ai-sdk: middleware recalled the earlier turn");
