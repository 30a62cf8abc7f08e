import { APICallError, type LanguageModelV4GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ModelError } from "../errors/index.js";
import { structuredCall } from "./structured-call.js";

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

function answer(text: string, unified: "stop" | "length" = "stop"): LanguageModelV4GenerateResult {
  return { content: [{ type: "text", text }], finishReason: { unified, raw: unified }, usage, warnings: [] };
}

/** A model that answers each call with the next scripted text. */
function scripted(...texts: string[]) {
  return new MockLanguageModelV4({ doGenerate: texts.map((t) => answer(t)) });
}

function failing(error: unknown) {
  return new MockLanguageModelV4({
    doGenerate: async () => {
      throw error;
    },
  });
}

const schema = z.object({ city: z.string(), years: z.number().int() });
const base = {
  schema,
  system: "Extract where the user lives.",
  prompt: "I have lived in Lisbon for 3 years.",
};

function promptText(model: MockLanguageModelV4, call: number): string {
  return JSON.stringify(model.doGenerateCalls[call]?.prompt);
}

async function rejection(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

function apiError(statusCode: number, headers?: Record<string, string>) {
  return new APICallError({
    message: `HTTP ${statusCode}`,
    url: "https://api.example.com/v1/chat/completions",
    requestBodyValues: {},
    statusCode,
    ...(headers ? { responseHeaders: headers } : {}),
  });
}

describe("structuredCall: parsing", () => {
  it.each([
    ["plain JSON", '{"city": "Lisbon", "years": 3}'],
    ["fenced JSON", '```json\n{"city": "Lisbon", "years": 3}\n```'],
    [
      "JSON with prose and think tags",
      '<think>{"city":"?"}</think>Sure! Here it is: {"city": "Lisbon", "years": 3}.',
    ],
    ["trailing commas", '{"city": "Lisbon", "years": 3,}'],
  ])("accepts %s in one call", async (_name, text) => {
    const model = scripted(text);
    await expect(structuredCall(model, base)).resolves.toEqual({ city: "Lisbon", years: 3 });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it("asks for JSON: schema in the system prompt and as responseFormat, options passed through", async () => {
    const model = scripted('{"city": "Lisbon", "years": 3}');
    await structuredCall(model, { ...base, temperature: 0, maxOutputTokens: 300 });
    const call = model.doGenerateCalls[0];
    expect(call?.responseFormat).toMatchObject({
      type: "json",
      schema: { type: "object", required: ["city", "years"] },
    });
    expect(call?.temperature).toBe(0);
    expect(call?.maxOutputTokens).toBe(300);
    const [system, user] = call?.prompt ?? [];
    expect(system?.role).toBe("system");
    expect(system?.content).toContain("Extract where the user lives.");
    expect(system?.content).toContain('"required":["city","years"]');
    expect(JSON.stringify(user)).toContain("I have lived in Lisbon for 3 years.");
  });

  it("reads only text parts, not reasoning", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: {
        ...answer(""),
        content: [
          { type: "reasoning", text: '{"city": "Porto", "years": 1}' },
          { type: "text", text: '{"city": "Lisbon", "years": 3}' },
        ],
      },
    });
    await expect(structuredCall(model, base)).resolves.toEqual({ city: "Lisbon", years: 3 });
  });
});

describe("structuredCall: the one retry", () => {
  it("retries broken JSON once, showing the model its answer and the error", async () => {
    const model = scripted('{"city": "Lisbon", "years": ', '{"city": "Lisbon", "years": 3}');
    let calls = 0;
    await expect(structuredCall(model, { ...base, onCall: () => calls++ })).resolves.toEqual({
      city: "Lisbon",
      years: 3,
    });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(calls).toBe(2);
    const retry = model.doGenerateCalls[1]?.prompt ?? [];
    expect(retry.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(JSON.stringify(retry[2])).toContain('{\\"city\\": \\"Lisbon\\", \\"years\\": ');
    expect(JSON.stringify(retry[3])).toContain("model output is not JSON");
  });

  it("throws a retryable ModelError after two broken answers", async () => {
    const model = scripted("Sorry, I cannot do that.", "Still no JSON here.");
    let calls = 0;
    const error = await rejection(structuredCall(model, { ...base, onCall: () => calls++ }));
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(calls).toBe(2);
    expect(error.code).toBe("MODEL");
    expect(error.details).toMatchObject({ kind: "invalid-output", retryable: true, attempts: 2 });
    expect(error.details.excerpt).toBe("Still no JSON here.");
    expect(error.message).toContain("mock-provider/mock-model-id");
  });

  it("retries a schema violation with the failing path in the message", async () => {
    const model = scripted('{"city": "Lisbon", "years": "three"}', '{"city": "Lisbon", "years": 3}');
    await expect(structuredCall(model, base)).resolves.toEqual({ city: "Lisbon", years: 3 });
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(promptText(model, 1)).toContain("does not match the schema: years: ");
  });

  it("tells the model when its answer was cut off by maxOutputTokens", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [answer('{"city": "Lis', "length"), answer('{"city": "Lisbon", "years": 3}')],
    });
    await structuredCall(model, base);
    expect(promptText(model, 1)).toContain("cut off at maxOutputTokens");
  });

  it("prefers the provider's structuredOutputText over the text parts", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: { ...answer("draft: none"), structuredOutputText: '{"city": "Lisbon", "years": 3}' },
    });
    await expect(structuredCall(model, base)).resolves.toEqual({ city: "Lisbon", years: 3 });
  });
});

describe("structuredCall: provider errors", () => {
  it("maps 429 to a retryable ModelError with the cause and Retry-After, without retrying itself", async () => {
    const cause = apiError(429, { "retry-after": "2" });
    const model = failing(cause);
    const error = await rejection(structuredCall(model, base));
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(error.details).toMatchObject({
      kind: "provider",
      retryable: true,
      statusCode: 429,
      retryAfterMs: 2000,
    });
    expect(error.cause).toBe(cause);
    expect(error.message).toContain("HTTP 429");
  });

  it.each([
    [500, true],
    [503, true],
    [408, true],
    [400, false],
    [401, false],
    [404, false],
  ])("maps HTTP %i to retryable %s", async (status, retryable) => {
    const error = await rejection(structuredCall(failing(apiError(status)), base));
    expect(error.details.retryable).toBe(retryable);
  });

  it("treats timeouts and dropped connections without a status as retryable", async () => {
    const timeout = new DOMException("The operation timed out.", "TimeoutError");
    expect((await rejection(structuredCall(failing(timeout), base))).details.retryable).toBe(true);
    const reset = new TypeError("fetch failed", {
      cause: Object.assign(new Error("socket"), { code: "ECONNRESET" }),
    });
    expect((await rejection(structuredCall(failing(reset), base))).details.retryable).toBe(true);
    expect((await rejection(structuredCall(failing(new Error("boom")), base))).details.retryable).toBe(false);
  });

  it("does not mark a caller's own abort as retryable", async () => {
    const controller = new AbortController();
    controller.abort();
    const model = failing(new DOMException("aborted", "AbortError"));
    const error = await rejection(structuredCall(model, { ...base, abortSignal: controller.signal }));
    expect(error.details).toMatchObject({ kind: "aborted", retryable: false });
    // The request's signal follows the caller's (joined with the call's own timeout).
    expect(model.doGenerateCalls[0]?.abortSignal?.aborted).toBe(true);
  });

  it("gives up on a model that hangs after timeoutMs, even one that ignores its abort signal", async () => {
    const hanging = new MockLanguageModelV4({ doGenerate: () => new Promise(() => {}) });
    const started = Date.now();
    const error = await rejection(structuredCall(hanging, { ...base, timeoutMs: 50 }));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error.details).toMatchObject({ kind: "timeout", retryable: true });
    expect(error.message).toContain("no answer from the model within 50 ms");
    expect(hanging.doGenerateCalls[0]?.abortSignal?.aborted).toBe(true);
  });

  it("falls back to prompt-only JSON when the provider has no JSON mode", async () => {
    const unsupported = Object.assign(new Error("JSON response format is not supported"), {
      name: "AI_UnsupportedFunctionalityError",
    });
    const model = new MockLanguageModelV4({
      doGenerate: async (options) => {
        if (options.responseFormat) throw unsupported;
        return answer('{"city": "Lisbon", "years": 3}');
      },
    });
    let calls = 0;
    await expect(structuredCall(model, { ...base, onCall: () => calls++ })).resolves.toEqual({
      city: "Lisbon",
      years: 3,
    });
    expect(model.doGenerateCalls.map((c) => c.responseFormat?.type)).toEqual(["json", undefined]);
    expect(calls).toBe(2);
  });
});
