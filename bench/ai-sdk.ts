// Overhead of the AI SDK memory middleware per model call (retrieval + injection, the model excluded) at
// 10,000 memories for the user. Called from bench/run.ts; alone it prints its figures as JSON:
//   pnpm tsx --conditions=@engram/source bench/ai-sdk.ts [--quick] [--data FILE]
import { join } from "node:path";
import { engramMiddleware } from "@engram/ai-sdk";
import { createEngram, type Engram } from "@engram/core";
import { storageOf } from "@engram/core/testing";
import { generateText, wrapLanguageModel } from "ai";
import { callParams, instantModel, lookupEmbedder } from "./ai-sdk-fixtures.js";
import { buildCorpus, type Pool } from "./corpus.js";
import { type CpuProfile, profileCpu } from "./cpu-profile.js";
import type { EmbeddedTexts } from "./embed-bench.js";
import type { SearchCounts } from "./search-bench.js";
import { type Latency, latencies, latency } from "./stats.js";

export interface AiSdkFigures {
  readonly scenario: string;
  readonly memories: number;
  /** The user's memories by tier and kind when measured. */
  readonly store: Readonly<Record<string, number>>;
  /** Tokens of the injected memory block, mean over the calls. */
  readonly contextTokensMean: number;
  /** `transformParams` over an engine whose retrieve answers instantly: the wrapper's own cost. */
  readonly wrapperOnly: Latency;
  /** `engram.retrieve` alone. */
  readonly retrieve: Latency;
  /** Parts of retrieve, each alone: its searches for facts (k 10), segments (k 5), pages (k 10), and the short-term scan. */
  readonly searchFacts: Latency;
  readonly searchSegments: Latency;
  readonly searchPages: Latency;
  readonly recentScan: Latency;
  /** The middleware's `transformParams`: retrieval + injection, what a call waits for before the model. */
  readonly transformParams: Latency;
  /** `generateText` through the middleware over an instant mock model, and the same call without it. */
  readonly generateWithMiddleware: Latency;
  readonly generateWithout: Latency;
  /**
   * What is left of the write-back after the response: only a turn waiting for a retry. The turn's write
   * itself (raw turn and embed job, not the embedding) is inside `generateWithMiddleware`.
   */
  readonly writeBack: Latency;
  /** Where `transformParams` spends its CPU time (self time, sampling profiler). */
  readonly profile: CpuProfile;
}

export interface AiSdkBenchOptions {
  readonly dir: string;
  readonly pool: Pool;
  /** The USE-lite embedder and vectors of the run; `questions[i]` has `embedded.questionVectors[i]`. */
  readonly embedded: EmbeddedTexts;
  readonly questions: readonly string[];
  /** Other questions, asked first (as a live user has asked earlier questions); not among `questions`. */
  readonly warmup: readonly string[];
  /** Calls per figure (`excluding`) and the time cap per figure. */
  readonly counts: SearchCounts;
}

export const AI_SDK_METHOD =
  "One user with 10,000 dialogue memories built as for the search figures (LoCoMo turns, USE-lite vectors with noise), measured twice: as stored (all short-term) and after the engine's tier processing (flush: short-term overflow into segments, promotion to facts), which is the state a user reaches through engram.add. " +
  "Query embedding is excluded as in the search figures: the engine's embedder returns each question's precomputed USE-lite vector (texts it has not seen, such as facts written during tier processing and the warm-up questions, get an instant hash vector). " +
  "Before measuring, the middleware answers as many other LoCoMo dev questions (none of the measured ones), as for the search figures. " +
  "transformParams is the middleware hook run before each model call (retrieve with the default 1,500-token budget, then the system message inserted); retrieve is engram.retrieve alone. " +
  "generateText runs over an instant mock model, with and without the middleware; write-back is the queued engram.add of the turn, awaited after the response. Default store settings (durability full); the background worker is off so queued visit and tier jobs do not run during the calls.";

async function storeShape(engram: Engram, userId: string): Promise<Record<string, number>> {
  const all = await engram.memories.list({ userId, limit: 100_000, includeExpired: false });
  const shape: Record<string, number> = {};
  for (const m of all) shape[`${m.kind}/${m.tier}`] = (shape[`${m.kind}/${m.tier}`] ?? 0) + 1;
  return shape;
}

/** Parts of retrieve measured alone: its three searches (default policy sizes) and the short-term scan. */
function stages(engram: Engram, userId: string) {
  const search = (query: string, k: number, kind: "fact" | "segment" | "message") =>
    engram.search({ userId, query, limit: k, kinds: [kind] });
  return {
    searchFacts: (q: string) => search(q, 10, "fact"),
    searchSegments: (q: string) => search(q, 5, "segment"),
    searchPages: (q: string) => search(q, 10, "message"),
    recentScan: () =>
      engram.memories.list({ userId, kinds: ["message"], tiers: ["short"], order: "asc", limit: 100_000 }),
  };
}

async function measure(engram: Engram, options: AiSdkBenchOptions, userId: string, scenario: string) {
  const model = instantModel();
  const timed = engramMiddleware({ engram, remember: false });
  const items = Array.from(
    { length: options.counts.excluding },
    (_, i) => options.questions[i % options.questions.length] as string,
  );
  const budget = { maxSeconds: options.counts.maxSeconds };
  const transform = (q: string) =>
    timed.transformParams?.({
      type: "generate",
      params: callParams(q, userId),
      model,
    }) as Promise<unknown>;
  let tokens = 0;
  // Warm-up with other questions: vectors loaded, index built, the scope's common terms scored.
  await latency(options.warmup, transform);
  const block = await engram.retrieve({ userId, query: items[0] as string });
  const instant = Object.create(engram, { retrieve: { value: async () => block } }) as Engram;
  const wrapper = engramMiddleware({ engram: instant, remember: false });
  const core = await latencies(
    items,
    {
      retrieve: async (q) => {
        tokens += (await engram.retrieve({ userId, query: q })).context.tokens;
      },
      transformParams: transform,
      wrapperOnly: (q) =>
        wrapper.transformParams?.({
          type: "generate",
          params: callParams(q, userId),
          model,
        }) as Promise<unknown>,
      ...stages(engram, userId),
    },
    budget,
  );
  const profile = await profileCpu(async () => {
    for (const q of items.slice(0, 20)) await transform(q);
  });
  const calls = await endToEnd(engram, items.slice(0, 100), userId, budget);
  return {
    scenario,
    memories: 10_000,
    store: await storeShape(engram, userId),
    contextTokensMean: Math.round(tokens / Math.max(1, core.retrieve.n)),
    ...core,
    ...calls,
    profile,
  };
}

/** generateText with and without the middleware, then the queued write-back it left behind. */
async function endToEnd(
  engram: Engram,
  items: readonly string[],
  userId: string,
  budget: { maxSeconds: number },
) {
  const memory = engramMiddleware({ engram, userId, sessionId: "bench" });
  const withMemory = wrapLanguageModel({ model: instantModel(), middleware: memory });
  const plain = instantModel();
  const figures = await latencies(
    items,
    {
      generateWithMiddleware: (q) => generateText({ model: withMemory, prompt: q }),
      writeBack: () => memory.flush(),
      generateWithout: (q) => generateText({ model: plain, prompt: q }),
    },
    budget,
  );
  await memory.close();
  return figures;
}

/** Middleware overhead at 10k memories for one user, before and after tier processing. */
export async function aiSdkBench(options: AiSdkBenchOptions): Promise<AiSdkFigures[]> {
  const path = join(options.dir, "ai-sdk.db");
  const corpus = await buildCorpus({
    path,
    users: 1,
    perUser: 10_000,
    pool: options.pool,
    sigma: 0.5,
    seed: 11,
  });
  const userId = corpus.userIds[0] as string;
  const vectors = options.embedded.questionVectors;
  const known = new Map(options.questions.map((text, i) => [text, vectors[i] as Float32Array]));
  const engram = await createEngram({
    path,
    embedder: lookupEmbedder(options.embedded.embedder, known, vectors[0]?.length ?? 512),
    background: false,
  });
  try {
    const raw = await measure(engram, options, userId, "10,000 memories, all short-term (as stored)");
    // The state engram.add reaches: queue the user's tier work and run it.
    const now = new Date().toISOString();
    await storageOf(engram).write(
      { userId },
      { jobs: [{ id: "job_bench_tiers", type: "tiers", payload: {}, dedupeKey: "tiers", runAt: now }] },
    );
    await engram.flush();
    const tiered = await measure(engram, options, userId, "10,000 memories after tier processing");
    return [tiered, raw];
  } finally {
    await engram.close();
  }
}
