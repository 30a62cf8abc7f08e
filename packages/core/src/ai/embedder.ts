import type { EmbeddingModelV3, EmbeddingModelV4 } from "@ai-sdk/provider";
import { ModelError } from "../errors/index.js";
import { normalize } from "../model/index.js";
import { combineWindows, DEFAULT_WINDOW_OPTIONS, embeddingWindows } from "./embedding-windows.js";
import { failureDetails } from "./provider-error.js";
import { timedRequest } from "./timed-request.js";

/** Any AI SDK embedding model: OpenAI, OpenAI-compatible servers (Ollama, vLLM), every AI SDK provider. */
export type EmbeddingModel = EmbeddingModelV4 | EmbeddingModelV3;

/** What the engine needs from an embedding model: unit-length vectors for a batch of texts. */
export interface Embedder {
  /** `provider/model`, recorded with stored vectors so a change of model is visible. */
  readonly id: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export interface EmbedderOptions {
  /** Texts (windows) per model call when the model states no limit. Default 64. */
  batchSize?: number;
  /**
   * A text longer than this many characters is embedded as windows of at most this size whose vectors are
   * averaged, so no model call sees an unbounded input. Default 8,000.
   */
  windowChars?: number;
  /** Windows embedded per text at most, spread evenly over it; bounds the cost of any text. Default 4. */
  maxWindows?: number;
  /**
   * A model call unanswered after this many milliseconds is aborted and fails with a ModelError (the
   * write it was for is stored without vectors and its embedding retried). Default 60,000.
   */
  timeoutMs?: number;
}

export const EMBED_TIMEOUT_MS = 60_000;

/**
 * Adapts an AI SDK embedding model to the engine: long texts cut into bounded windows, batching,
 * normalisation, typed errors.
 */
export function embedderFromModel(model: EmbeddingModel, options: EmbedderOptions = {}): Embedder {
  const id = `${model.provider}/${model.modelId}`;
  const timeoutMs = Math.max(1, options.timeoutMs ?? EMBED_TIMEOUT_MS);
  const windows = {
    windowChars: Math.max(1, options.windowChars ?? DEFAULT_WINDOW_OPTIONS.windowChars),
    maxWindows: Math.max(1, options.maxWindows ?? DEFAULT_WINDOW_OPTIONS.maxWindows),
  };
  const embedValues = async (texts: readonly string[]): Promise<Float32Array[]> => {
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
        result = await timedRequest(timeoutMs, (abortSignal) => model.doEmbed({ values, abortSignal }));
      } catch (cause) {
        // Retryable or not, and the server's Retry-After, go with the error: the job's back-off reads them.
        throw new ModelError(`embedding model ${id} failed: ${(cause as Error).message}`, {
          cause,
          details: failureDetails(cause),
        });
      }
      if (result.embeddings.length !== values.length) {
        throw new ModelError(
          `embedding model ${id} returned ${result.embeddings.length} vectors for ${values.length} texts`,
        );
      }
      for (const e of result.embeddings) out.push(normalize(e));
    }
    return out;
  };
  return {
    id,
    async embed(texts) {
      if (texts.length === 0) return [];
      const parts = texts.map((text) => embeddingWindows(text, windows));
      const vectors = await embedValues(parts.flat());
      let next = 0;
      return parts.map((windowsOfText) => {
        const own = vectors.slice(next, next + windowsOfText.length);
        next += windowsOfText.length;
        return combineWindows(
          own,
          windowsOfText.map((w) => w.length),
        );
      });
    },
  };
}

/** Why a vector cannot be stored or searched with, or null when it can. */
function vectorProblem(v: unknown, dimensions: number | null): string | null {
  if (!(v instanceof Float32Array)) return `not a Float32Array (${Object.prototype.toString.call(v)})`;
  if (v.length === 0) return "an empty vector";
  if (dimensions !== null && v.length !== dimensions) {
    return `${v.length} dimensions where its earlier vectors had ${dimensions}`;
  }
  // A zero vector is allowed: it is what a blank text gets, and it matches nothing.
  for (let i = 0; i < v.length; i++) {
    const x = v[i] as number;
    if (!Number.isFinite(x)) return `a value that is not a finite number (${x}) at ${i}`;
  }
  return null;
}

/**
 * The engine's guard around any embedder: one vector per text, each non-empty, finite, and of one size for
 * the engine's lifetime. A bad answer is a ModelError naming the problem, so the write it
 * was for is stored without vectors and its embedding retried, and a query falls back to full text: a
 * vector that would corrupt search is never stored.
 */
export function checkedEmbedder(inner: Embedder): Embedder {
  let dimensions: number | null = null;
  return {
    id: inner.id,
    async embed(texts) {
      const vectors = await inner.embed(texts);
      if (!Array.isArray(vectors) || vectors.length !== texts.length) {
        const got = Array.isArray(vectors) ? `${vectors.length} vectors` : "no list of vectors";
        throw new ModelError(`embedder ${inner.id} returned ${got} for ${texts.length} texts`);
      }
      for (const [i, v] of vectors.entries()) {
        const problem = vectorProblem(v, dimensions);
        if (problem)
          throw new ModelError(
            `embedder ${inner.id} returned ${problem} for text ${i + 1} of ${texts.length}`,
          );
        dimensions ??= (v as Float32Array).length;
      }
      return vectors;
    },
  };
}
