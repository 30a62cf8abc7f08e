import { Embeddings } from "@langchain/core/embeddings";

/** Deterministic LangChain embeddings for tests: each word hashes to a signed slot (shared words, high cosine). */
export class WordHashEmbeddings extends Embeddings {
  constructor(private readonly dims = 64) {
    super({});
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map((t) => this.vector(t));
  }

  async embedQuery(text: string): Promise<number[]> {
    return this.vector(text);
  }

  private vector(text: string): number[] {
    const v = new Array<number>(this.dims).fill(0);
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      let h = 2166136261;
      for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
      h >>>= 0;
      v[h % this.dims] = (v[h % this.dims] ?? 0) + ((h >>> 16) & 1 ? 1 : -1);
    }
    return v;
  }
}
