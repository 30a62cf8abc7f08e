import { ValidationError } from "../errors/index.js";
import type { EmbeddingModel } from "./embedder.js";
import { offlineEmbeddingModel } from "./offline-embedding-model.js";
import { onnxEmbeddingModel } from "./onnx-embedding-model.js";
import { importOptionalPeer } from "./optional-peer.js";

/**
 * An embedder named in one line, the same for the library, the CLI (`--embedder`, `ENGRAM_EMBEDDER`) and
 * the MCP server: `offline` (the bundled model), `none` (full text only), `openai:MODEL` (any
 * OpenAI-compatible `/v1/embeddings` endpoint: OpenAI, Ollama, vLLM, LM Studio), or `onnx:DIR` (a local
 * ONNX sentence-embedding model run by `@huggingface/transformers`, nothing downloaded).
 */
export type EmbedderSpec =
  | { readonly kind: "offline" }
  | { readonly kind: "none" }
  | { readonly kind: "openai"; readonly model: string }
  | { readonly kind: "onnx"; readonly dir: string };

export const EMBEDDER_SPEC_FORMS = ["offline", "none", "openai:MODEL", "onnx:DIR"] as const;

/** Parses a spec; a bad one is a ValidationError that lists the accepted forms. */
export function parseEmbedderSpec(text: string, source = "embedder"): EmbedderSpec {
  const spec = text.trim();
  if (spec === "offline" || spec === "none") return { kind: spec };
  const openai = /^openai:(\S+)$/.exec(spec);
  if (openai) return { kind: "openai", model: openai[1] as string };
  // A folder's name may hold spaces; everything after the colon is the path.
  const onnx = /^onnx:(.*\S.*)$/.exec(spec);
  if (onnx) return { kind: "onnx", dir: (onnx[1] as string).trim() };
  throw new ValidationError(
    `bad ${source} ${JSON.stringify(text)}: expected ${EMBEDDER_SPEC_FORMS.join(", ")} ` +
      "(e.g. openai:text-embedding-3-small, onnx:./models/bge-small-en-v1.5)",
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
 * `@ai-sdk/openai` and `onnx:` `@huggingface/transformers` on demand, so only deployments that use one
 * install it. An `onnx:` folder is resolved against the working directory.
 */
export async function embedderFromSpec(
  spec: string | EmbedderSpec,
  options: EmbedderSpecOptions = {},
): Promise<EmbeddingModel | null> {
  const parsed = typeof spec === "string" ? parseEmbedderSpec(spec) : spec;
  if (parsed.kind === "none") return null;
  if (parsed.kind === "offline") return offlineEmbeddingModel();
  if (parsed.kind === "onnx") return onnxEmbeddingModel(parsed.dir);
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
  const { createOpenAI } = await importOptionalPeer(
    () => import("@ai-sdk/openai"),
    "@ai-sdk/openai",
    "an openai: embedder",
  );
  // A local server takes any key; the client refuses to start without one.
  return createOpenAI({ baseURL: url, apiKey: options.apiKey || "none" }).embedding(parsed.model);
}
