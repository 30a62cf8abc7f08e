// Measures the offline embedder (USE-lite) in a fresh process: load time, memory, throughput on real
// dialogue turns, and a paraphrase-retrieval check through the engine's channels. Usage:
//   pnpm tsx --conditions=@engram/source bench/embedder-check.ts [--data FILE] [--json]
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  type Channel,
  createEngram,
  type Embedder,
  embedderFromModel,
  offlineEmbeddingModel,
} from "@engram/core";
import { loadBenchData, meanLength, spread } from "./bench-data.js";
import { PARAPHRASE_PAIRS } from "./paraphrase-pairs.js";
import { mib, timed } from "./stats.js";

export interface RankQuality {
  readonly top1: number;
  readonly top3: number;
  /** Mean reciprocal rank of the paraphrased memory (0 when not found). */
  readonly mrr: number;
}

export interface Rate {
  readonly texts: number;
  readonly meanChars: number;
  readonly textsPerSec: number;
  /** Per second of this process's CPU time: robust to other processes sharing the cores. */
  readonly textsPerCpuSec: number;
}

export interface EmbedderCheck {
  readonly embedder: string;
  readonly loadMs: number;
  readonly rssBeforeMiB: number;
  readonly rssAfterLoadMiB: number;
  readonly rssAfterMiB: number;
  readonly batch32: Rate;
  readonly batch1: Rate;
  readonly paraphrase: { pairs: number } & Record<"vector" | "fulltext" | "hybrid", RankQuality>;
}

async function rate(embedder: Embedder, texts: readonly string[], batch: number): Promise<Rate> {
  const { ms, cpuMs } = await timed(async () => {
    for (let i = 0; i < texts.length; i += batch) await embedder.embed(texts.slice(i, i + batch));
  });
  return {
    texts: texts.length,
    meanChars: meanLength(texts),
    textsPerSec: Math.round(texts.length / (ms / 1000)),
    textsPerCpuSec: Math.round(texts.length / (cpuMs / 1000)),
  };
}

/** Ranks of each paraphrased memory among the 20, per channel set, through `engram.search`. */
async function paraphraseCheck(embedder: Embedder): Promise<EmbedderCheck["paraphrase"]> {
  // Messages only: no context window and no tier processing, so the ranks are the embedder's.
  const engram = await createEngram({ path: ":memory:", embedder, contextWindow: false, tiers: false });
  const { ids } = await engram.add({
    userId: "check",
    messages: PARAPHRASE_PAIRS.map((p) => ({ role: "user" as const, content: p.memory })),
  });
  const quality = async (channels: Channel[]): Promise<RankQuality> => {
    const ranks: number[] = [];
    for (const [i, pair] of PARAPHRASE_PAIRS.entries()) {
      const results = await engram.search({ userId: "check", query: pair.query, limit: 20, channels });
      ranks.push(results.findIndex((r) => r.id === ids[i]) + 1);
    }
    const mrr = ranks.reduce((s, r) => s + (r > 0 ? 1 / r : 0), 0) / ranks.length;
    return {
      top1: ranks.filter((r) => r === 1).length,
      top3: ranks.filter((r) => r >= 1 && r <= 3).length,
      mrr: Number(mrr.toFixed(3)),
    };
  };
  const figures = {
    pairs: PARAPHRASE_PAIRS.length,
    vector: await quality(["vector"]),
    fulltext: await quality(["fulltext"]),
    hybrid: await quality(["fulltext", "vector"]),
  };
  await engram.close();
  return figures;
}

export async function embedderCheck(dataFile: string): Promise<EmbedderCheck> {
  const rssBefore = process.memoryUsage().rss;
  const embedder = embedderFromModel(offlineEmbeddingModel());
  const load = await timed(() => embedder.embed(["Loading the model for the first time."]));
  const rssAfterLoad = process.memoryUsage().rss;
  const turns = (await loadBenchData(dataFile)).turns.map((t) => t.text);
  const batch32 = await rate(embedder, spread(turns, 320), 32);
  const batch1 = await rate(embedder, spread(turns, 64), 1);
  const paraphrase = await paraphraseCheck(embedder);
  return {
    embedder: embedder.id,
    loadMs: load.ms,
    rssBeforeMiB: mib(rssBefore),
    rssAfterLoadMiB: mib(rssAfterLoad),
    rssAfterMiB: mib(process.memoryUsage().rss),
    batch32,
    batch1,
    paraphrase,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const defaultData = fileURLToPath(new URL("../../shared/data/locomo/locomo-dev.json", import.meta.url));
  const { values } = parseArgs({
    options: { data: { type: "string", default: defaultData }, json: { type: "boolean", default: false } },
  });
  const check = await embedderCheck(values.data as string);
  if (values.json) console.log(JSON.stringify(check));
  else {
    console.log(
      `${check.embedder}: first call (model load) ${check.loadMs} ms, RSS ${check.rssBeforeMiB} -> ${check.rssAfterLoadMiB} MiB`,
    );
    for (const [name, r] of [
      ["batch 32", check.batch32],
      ["batch 1", check.batch1],
    ] as const) {
      console.log(
        `${name}: ${r.textsPerSec} texts/s (${r.textsPerCpuSec} per CPU second), mean ${r.meanChars} chars`,
      );
    }
    for (const name of ["vector", "fulltext", "hybrid"] as const) {
      const q = check.paraphrase[name];
      console.log(`paraphrase ${name}: top-1 ${q.top1}/20, top-3 ${q.top3}/20, MRR ${q.mrr}`);
    }
  }
}
