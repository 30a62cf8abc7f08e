import { UnsupportedError, ValidationError } from "../errors/index.js";
import type { EmbeddingModel } from "./embedder.js";
import { offlineEmbeddingModel } from "./offline-embedding-model.js";

/**
 * An embedder named in one line, the same for the library, the CLI (`--embedder`, `ENGRAM_EMBEDDER`) and
 * the MCP server: `offline` (the bundled model), `none` (full text only), or `openai:MODEL` (any
 * OpenAI-compatible `/v1/embeddings` endpoint: OpenAI, Ollama, vLLM, LM Studio).
 */
export type EmbedderSpec =
  | { readonly kind: "offline" }
  | { readonly kind: "none" }
  | { readonly kind: "openai"; readonly model: string };

export const EMBEDDER_SPEC_FORMS = ["offline", "none", "openai:MODEL"] as const;

/** Parses a spec; a bad one is a ValidationError that lists the accepted forms. */
export function parseEmbedderSpec(text: string, source = "embedder"): EmbedderSpec {
  const spec = text.trim();
  if (spec === "offline" || spec === "none") return { kind: spec };
  const openai = /^openai:(\S+)$/.exec(spec);
  if (openai) return { kind: "openai", model: openai[1] as string };
  throw new ValidationError(
    `bad ${source} ${JSON.stringify(text)}: expected ${EMBEDDER_SPEC_FORMS.join(", ")} ` +
      "(e.g. openai:text-embedding-3-small)",
    { details: { path: source } },
  );
}

export interface EmbedderSpecOptions {
  /** Base URL of the OpenAI-compatible API (ending in `/v1`). Default: OpenAI's. */
  readonly url?: string | undefined;
  /** The API key. Needed for OpenAI's own API; a local server may take none. */
  readonly apiKey?: string | undefined;
}

const OPENAI_URL = "https://api.openai.com/v1";

/**
 * The embedding model a spec names, for `createEngram({ embedder })`: null for `none`. `openai:` loads
 * `@ai-sdk/openai` on demand, so only deployments that use it install it.
 */
export async function embedderFromSpec(
  spec: string | EmbedderSpec,
  options: EmbedderSpecOptions = {},
): Promise<EmbeddingModel | null> {
  const parsed = typeof spec === "string" ? parseEmbedderSpec(spec) : spec;
  if (parsed.kind === "none") return null;
  if (parsed.kind === "offline") return offlineEmbeddingModel();
  const url = options.url ?? OPENAI_URL;
  if (!/^https?:\/\/\S+$/.test(url)) {
    throw new ValidationError(
      `bad embedder URL ${JSON.stringify(url)}: expected http(s)://host[:port]/v1, e.g. http://localhost:11434/v1`,
      { details: { path: "url" } },
    );
  }
  if (url === OPENAI_URL && !options.apiKey) {
    throw new ValidationError(
      `openai:${parsed.model} needs an API key for ${OPENAI_URL}: set OPENAI_API_KEY, or name another server's URL`,
      { details: { path: "apiKey" } },
    );
  }
  const { createOpenAI } = await loadOpenAi();
  // A local server takes any key; the client refuses to start without one.
  return createOpenAI({ baseURL: url, apiKey: options.apiKey || "none" }).embedding(parsed.model);
}

async function loadOpenAi(): Promise<typeof import("@ai-sdk/openai")> {
  try {
    return await import("@ai-sdk/openai");
  } catch (cause) {
    if ((cause as { code?: string }).code !== "ERR_MODULE_NOT_FOUND") throw cause;
    throw new UnsupportedError(
      "an openai: embedder needs the @ai-sdk/openai package, which is not installed: add it (npm install @ai-sdk/openai)",
      { cause },
    );
  }
}
