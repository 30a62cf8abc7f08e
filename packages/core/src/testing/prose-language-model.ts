import type { LanguageModelV4, LanguageModelV4GenerateResult } from "@ai-sdk/provider";

/**
 * A language model that answers every request with prose where JSON is asked for, as a misconfigured
 * or weak model does: for tests that background work fails, is retried and is reported.
 */
export function proseLanguageModel(
  text = "Sure! Here is a summary: the user seems to enjoy hiking near the coast.",
): LanguageModelV4 {
  const answer: LanguageModelV4GenerateResult = {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage: {
      inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 2, text: 2, reasoning: undefined },
    },
    warnings: [],
  };
  return {
    specificationVersion: "v4",
    provider: "engram-test",
    modelId: "prose",
    supportedUrls: {},
    async doGenerate() {
      return answer;
    },
    async doStream() {
      throw new Error("proseLanguageModel answers doGenerate only");
    },
  };
}
