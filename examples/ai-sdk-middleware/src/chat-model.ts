import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV4, LanguageModelV4Prompt, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

/** A stand-in model: answers with the scripted replies in turn and keeps every prompt it was given. */
export function scriptedModel(replies: readonly string[]): {
  model: LanguageModelV4;
  prompts: LanguageModelV4Prompt[];
} {
  const prompts: LanguageModelV4Prompt[] = [];
  const next = (prompt: LanguageModelV4Prompt): string => {
    prompts.push(prompt);
    return replies[(prompts.length - 1) % replies.length] ?? "";
  };
  const model = new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => ({
      content: [{ type: "text", text: next(prompt) }],
      finishReason: { unified: "stop", raw: "stop" },
      usage,
      warnings: [],
    }),
    doStream: async ({ prompt }) => {
      const words = next(prompt).match(/\S+\s*/g) ?? [];
      const chunks: LanguageModelV4StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "text-start", id: "t" },
        ...words.map((delta) => ({ type: "text-delta" as const, id: "t", delta })),
        { type: "text-end", id: "t" },
        { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
      ];
      return { stream: simulateReadableStream({ chunks, chunkDelayInMs: 5 }) };
    },
  });
  return { model, prompts };
}

/**
 * A real model when OPENAI_API_KEY or OPENAI_BASE_URL is set (any OpenAI-compatible server; model from
 * OPENAI_MODEL, default gpt-4o-mini), else null.
 */
export function openAIModel(env: NodeJS.ProcessEnv = process.env): LanguageModelV4 | null {
  if (!env.OPENAI_API_KEY && !env.OPENAI_BASE_URL) return null;
  const openai = createOpenAI({
    ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
    apiKey: env.OPENAI_API_KEY ?? "not-needed",
  });
  // .chat(): the Chat Completions endpoint, which OpenAI-compatible servers (Ollama, vLLM) implement.
  return openai.chat(env.OPENAI_MODEL ?? "gpt-4o-mini");
}
