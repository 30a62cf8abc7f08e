import type { EmbeddingModelV3, EmbeddingModelV4 } from "@ai-sdk/provider";
import { ModelError } from "../errors/index.js";

/** Any AI SDK embedding model: OpenAI, OpenAI-compatible servers (Ollama, vLLM), every AI SDK provider. */
export type EmbeddingModel = EmbeddingModelV4 | EmbeddingModelV3;

/** What the engine needs from an embedding model: unit-length vectors for a batch of texts. */
export interface Embedder {
  /** `provider/model`, recorded with stored vectors so a change of model is visible. */
  readonly id: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export function normalize(values: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(values);
  let norm = 0;
  for (let i = 0; i < out.length; i++) norm += (out[i] as number) ** 2;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / norm;
  return out;
}

export interface EmbedderOptions {
  /** Texts per model call when the model states no limit. Default 64. */
  batchSize?: number;
}

/** Adapts an AI SDK embedding model to the engine: batching, normalisation, typed errors. */
export function embedderFromModel(model: EmbeddingModel, options: EmbedderOptions = {}): Embedder {
  const id = `${model.provider}/${model.modelId}`;
  return {
    id,
    async embed(texts) {
      if (texts.length === 0) return [];
      const limit = await model.maxEmbeddingsPerCall;
      const size = Math.max(
        1,
        Math.min(limit && Number.isFinite(limit) ? limit : Infinity, options.batchSize ?? 64),
      );
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += size) {
        const values = texts.slice(i, i + size);
        let result: { embeddings: number[][] };
        try {
          result = (await model.doEmbed({ values })) as { embeddings: number[][] };
        } catch (cause) {
          throw new ModelError(`embedding model ${id} failed: ${(cause as Error).message}`, { cause });
        }
        if (result.embeddings.length !== values.length) {
          throw new ModelError(
            `embedding model ${id} returned ${result.embeddings.length} vectors for ${values.length} texts`,
          );
        }
        for (const e of result.embeddings) out.push(normalize(e));
      }
      return out;
    },
  };
}
