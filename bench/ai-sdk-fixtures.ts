import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import type { Embedder } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { MockLanguageModelV4 } from "ai/test";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** Answers instantly, so a generateText figure is the SDK's and the middleware's own cost. */
export const instantModel = () =>
  new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: "text", text: "Noted." }],
      finishReason: { unified: "stop", raw: undefined },
      usage,
      warnings: [],
    }),
  });

/** Known questions get their precomputed vectors (embedding excluded); anything else an instant hash vector. */
export function lookupEmbedder(
  base: Embedder,
  known: ReadonlyMap<string, Float32Array>,
  dims: number,
): Embedder {
  const hash = hashEmbeddingModel({ dimensions: dims });
  return {
    id: base.id,
    async embed(texts) {
      const missing = texts.filter((t) => !known.has(t));
      const { embeddings } = missing.length ? await hash.doEmbed({ values: missing }) : { embeddings: [] };
      const fallback = new Map(missing.map((t, i) => [t, Float32Array.from(embeddings[i] ?? [])]));
      return texts.map((t) => known.get(t) ?? (fallback.get(t) as Float32Array));
    },
  };
}

/** A call as `generateText` hands it to the middleware: instructions, an earlier exchange, the new message. */
export function callParams(question: string, userId: string): LanguageModelV4CallOptions {
  return {
    prompt: [
      { role: "system", content: "You are a friendly assistant with long-term memory. Be brief." },
      { role: "user", content: [{ type: "text", text: "Hi again!" }] },
      { role: "assistant", content: [{ type: "text", text: "Hello! How can I help today?" }] },
      { role: "user", content: [{ type: "text", text: question }] },
    ],
    providerOptions: { engram: { userId } },
  };
}
