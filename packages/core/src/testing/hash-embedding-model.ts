import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { tokenize } from "../model/index.js";

function hash(token: string): number {
  let h = 2166136261;
  for (let i = 0; i < token.length; i++) {
    h ^= token.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

export interface HashEmbeddingOptions {
  dimensions?: number;
  /** Called with each batch, e.g. to count model calls. */
  onCall?: (values: readonly string[]) => void;
}

/**
 * A deterministic, instant AI SDK embedding model for tests: each word hashes to a signed slot, so texts
 * sharing words have a high cosine. Not a semantic model; never use it for real retrieval.
 */
export function hashEmbeddingModel(options: HashEmbeddingOptions = {}): EmbeddingModelV4 {
  const dims = options.dimensions ?? 64;
  return {
    specificationVersion: "v4",
    provider: "engram-test",
    modelId: `hash-${dims}`,
    maxEmbeddingsPerCall: 256,
    supportsParallelCalls: true,
    async doEmbed({ values }) {
      options.onCall?.(values);
      const embeddings = values.map((text) => {
        const v = new Array<number>(dims).fill(0);
        for (const token of tokenize(text)) {
          const h = hash(token);
          v[h % dims] = (v[h % dims] as number) + ((h >>> 16) & 1 ? 1 : -1);
        }
        return v;
      });
      return { embeddings, warnings: [] };
    },
  };
}

/** An embedding model that fails every call (or the first `failures` calls), for model-fault tests. */
export function failingEmbeddingModel(
  failures = Number.POSITIVE_INFINITY,
  inner = hashEmbeddingModel(),
): EmbeddingModelV4 {
  let calls = 0;
  return {
    ...inner,
    modelId: `failing-${inner.modelId}`,
    provider: inner.provider,
    async doEmbed(options) {
      calls++;
      if (calls <= failures) throw new Error(`simulated embedding failure #${calls}`);
      return inner.doEmbed(options);
    },
  };
}
