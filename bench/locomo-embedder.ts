// The one offline embedder every system of the LoCoMo runs shares (Engram's default, USE-lite), so a
// difference between systems is never a difference of embedder.
import { type Embedder, embedderFromModel, offlineEmbeddingModel } from "@engram/core";
import { Embeddings } from "@langchain/core/embeddings";

/** An embedder that remembers vectors by text; with `live` set, every call runs the model again. */
export interface RememberingEmbedder extends Embedder {
  /** True while latencies that include the query embedding are measured. */
  live: boolean;
}

/** The offline embedder with vectors remembered, so variants and passes pay for each text once. */
export function rememberingEmbedder(): RememberingEmbedder {
  const inner = embedderFromModel(offlineEmbeddingModel());
  const known = new Map<string, Float32Array>();
  const self: RememberingEmbedder = {
    id: inner.id,
    live: false,
    async embed(texts) {
      const missing = [...new Set(self.live ? texts : texts.filter((t) => !known.has(t)))];
      if (missing.length) {
        const vectors = await inner.embed(missing);
        for (const [i, t] of missing.entries()) known.set(t, vectors[i] as Float32Array);
      }
      return texts.map((t) => known.get(t) as Float32Array);
    },
  };
  return self;
}

/** The same embedder as LangChain `Embeddings`, which LangGraph's store and mem0 take. */
export class SharedEmbeddings extends Embeddings {
  constructor(private readonly embedder: Embedder) {
    super({});
  }

  override async embedDocuments(texts: string[]): Promise<number[][]> {
    return (await this.embedder.embed(texts)).map((v) => Array.from(v));
  }

  override async embedQuery(text: string): Promise<number[]> {
    return Array.from((await this.embedder.embed([text]))[0] as Float32Array);
  }
}
