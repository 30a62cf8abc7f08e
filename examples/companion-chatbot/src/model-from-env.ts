import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";

/** The OpenAI model used when only OPENAI_API_KEY is set: small, fast, and served on Chat Completions. */
export const DEFAULT_OPENAI_MODEL = "gpt-4.1-mini";

export const CONFIGURE_MODEL_HELP = `The companion needs a language model, and none is configured. Either:

  OpenAI:                         export OPENAI_API_KEY=sk-...
                                  (optional: export ENGRAM_MODEL=${DEFAULT_OPENAI_MODEL})
  An OpenAI-compatible server     export OPENAI_BASE_URL=http://127.0.0.1:11434/v1
  (Ollama, vLLM, llama.cpp):      export ENGRAM_MODEL=llama3.2
                                  (and OPENAI_API_KEY if the server wants one)

then run the companion again.`;

export type ModelChoice =
  | { readonly ok: true; readonly model: Exclude<LanguageModel, string>; readonly description: string }
  | { readonly ok: false; readonly message: string };

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The chat model named by the environment: OPENAI_BASE_URL + ENGRAM_MODEL for an OpenAI-compatible server,
 * else OPENAI_API_KEY for OpenAI. Chat Completions (`.chat`) everywhere: local servers do not implement the
 * Responses API that the provider's default model uses.
 */
export function modelFromEnv(env: Env): ModelChoice {
  const baseURL = env.OPENAI_BASE_URL?.trim() || undefined;
  const apiKey = env.OPENAI_API_KEY?.trim() || undefined;
  const modelId = env.ENGRAM_MODEL?.trim() || undefined;
  if (baseURL) {
    if (!modelId) {
      return {
        ok: false,
        message: `OPENAI_BASE_URL is set (${baseURL}) but ENGRAM_MODEL is not: set it to a model the server serves, e.g. export ENGRAM_MODEL=llama3.2`,
      };
    }
    // Local servers accept any key; the provider insists on one.
    const provider = createOpenAI({ baseURL, apiKey: apiKey ?? "not-needed", name: "openai-compatible" });
    return { ok: true, model: provider.chat(modelId), description: `${modelId} at ${baseURL}` };
  }
  if (apiKey) {
    const id = modelId ?? DEFAULT_OPENAI_MODEL;
    return { ok: true, model: createOpenAI({ apiKey }).chat(id), description: `OpenAI ${id}` };
  }
  return { ok: false, message: CONFIGURE_MODEL_HELP };
}
