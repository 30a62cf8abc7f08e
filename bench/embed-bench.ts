import { type Embedder, embedderFromModel, offlineEmbeddingModel } from "@engram/core";
import { meanLength } from "./bench-data.js";
import { type Latency, latency, mib, timed } from "./stats.js";

export interface Throughput {
  readonly texts: number;
  readonly meanChars: number;
  readonly batch: number;
  readonly seconds: number;
  readonly textsPerSec: number;
  /** Texts per second of this process's CPU time: what the rate would be without competing processes. */
  readonly textsPerCpuSec: number;
}

export interface EmbeddingFigures {
  readonly embedder: string;
  /** First call: loads the packaged TF.js weights and runs one text. */
  readonly firstCallMs: number;
  readonly rssBeforeMiB: number;
  readonly rssAfterLoadMiB: number;
  /** Pool of dialogue turns, in batches of 32 (the model's per-call maximum). */
  readonly turns: Throughput;
  readonly questions: Throughput;
  /** One question per call, as a search embeds its query. */
  readonly singleQuery: Latency;
}

export interface EmbeddedTexts {
  readonly embedder: Embedder;
  readonly figures: EmbeddingFigures;
  readonly turnVectors: Float32Array[];
  readonly questionVectors: Float32Array[];
}

async function throughput(embedder: Embedder, texts: readonly string[]) {
  const { value, ms, cpuMs } = await timed(() => embedder.embed(texts));
  const seconds = ms / 1000;
  const figures: Throughput = {
    texts: texts.length,
    meanChars: meanLength(texts),
    batch: 32,
    seconds: Number(seconds.toFixed(2)),
    textsPerSec: Math.round(texts.length / seconds),
    textsPerCpuSec: Math.round(texts.length / (cpuMs / 1000)),
  };
  return { vectors: value, figures };
}

/** Measures the offline embedder while embedding the texts every later figure needs. */
export async function embedTexts(
  turns: readonly string[],
  questions: readonly string[],
): Promise<EmbeddedTexts> {
  const rssBefore = process.memoryUsage().rss;
  const embedder = embedderFromModel(offlineEmbeddingModel());
  const first = await timed(() => embedder.embed(["Loading the model for the first time."]));
  const rssAfterLoad = process.memoryUsage().rss;
  const pool = await throughput(embedder, turns);
  const asked = await throughput(embedder, questions);
  const singleQuery = await latency(questions.slice(0, 100), (q) => embedder.embed([q]));
  return {
    embedder,
    turnVectors: pool.vectors,
    questionVectors: asked.vectors,
    figures: {
      embedder: embedder.id,
      firstCallMs: first.ms,
      rssBeforeMiB: mib(rssBefore),
      rssAfterLoadMiB: mib(rssAfterLoad),
      turns: pool.figures,
      questions: asked.figures,
      singleQuery,
    },
  };
}
