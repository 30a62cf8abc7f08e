import { APICallError, type LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

function promptText(options: LanguageModelV4CallOptions): string {
  return options.prompt
    .map((m) =>
      typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join(""),
    )
    .join("\n");
}

/** The JSON objects of a `DATA: <name>` section of an extraction prompt. */
function section(text: string, name: string): Array<{ id: string; text?: string }> {
  const start = text.indexOf(`DATA: ${name}\n`);
  if (start < 0) return [];
  const body = text.slice(start + name.length + 7).split("\n\n")[0] ?? "";
  return body
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { id: string; text?: string });
}

/** Answers the engine's three structured calls with valid, minimal JSON, built from the prompt it receives. */
function answer(text: string): unknown {
  if (text.includes("one-sentence summary")) {
    const pages = section(text, "pages");
    return {
      pages: pages.map((p) => ({
        id: p.id,
        summary: (p.text ?? "").slice(0, 80) || "a page",
        keywords: ["talk"],
      })),
      assignments: pages.map((p) => ({
        pageId: p.id,
        segmentId: null,
        newTopic: { summary: "conversation", keywords: ["talk"] },
      })),
    };
  }
  if (text.includes("Extract durable knowledge")) return { facts: [] };
  return { facts: [], retract: [], edits: [] };
}

/** A language model double that counts its calls; `calls` is read by the test. */
export function countingModel(): { model: MockLanguageModelV4; calls: () => number } {
  let calls = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      calls++;
      return {
        content: [{ type: "text", text: JSON.stringify(answer(promptText(options))) }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      };
    },
  });
  return { model, calls: () => calls };
}

/** What a faulty model does with one request: a fault, or a valid answer ("ok"). */
export type ModelFault = "garbage" | "429" | "timeout-error" | "hang" | "ok";

/**
 * A language model double that takes its behaviour for each request from `faults` (the last entry
 * repeats): unparseable text, an HTTP 429, a provider timeout error, a request that never settles and
 * ignores its abort signal, or a valid, minimal answer.
 */
export function faultyModel(faults: readonly ModelFault[]): {
  model: MockLanguageModelV4;
  calls: () => number;
} {
  let calls = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      const fault = faults[Math.min(calls, faults.length - 1)] as ModelFault;
      calls++;
      if (fault === "hang") return new Promise<never>(() => {});
      if (fault === "429") {
        throw new APICallError({
          message: "Too Many Requests",
          url: "https://api.example.com/v1/chat/completions",
          requestBodyValues: {},
          statusCode: 429,
        });
      }
      if (fault === "timeout-error") throw new DOMException("The operation timed out.", "TimeoutError");
      const text =
        fault === "garbage"
          ? "Sure! {facts: [oops,, ]] not json"
          : JSON.stringify(answer(promptText(options)));
      return {
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      };
    },
  });
  return { model, calls: () => calls };
}
