// What reaches the model on the LoCoMo dev split: search recall@k and the evidence held by the context
// `retrieve` assembles, for the tuning conversations (0-2) and the check conversations (3-4) apart.
// The store is ingested once (tiers on, flushed per session) and reused; variants only change reads.
// Usage: pnpm tsx --conditions=@engram/source bench/locomo-quality.ts [--data FILE] [--db DIR] [--variant NAME]
import { existsSync, mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  contextEvidenceRecall,
  goldTurnIds,
  ingestLocomo,
  isEligible,
  type LocomoConversation,
  meanAccumulator,
  parseLocomo,
  recallAccumulator,
  turnContent,
} from "@engram/cli/locomo";
import { createEngram, type Embedder, type EngramOptions, sanitizeMemoryText } from "@engram/core";
import { rememberingEmbedder } from "./locomo-embedder.js";
import { cpuMsSince } from "./stats.js";

export { rememberingEmbedder };

export interface QualityVariant {
  name: string;
  options: Partial<EngramOptions>;
}

export interface QualityRow {
  variant: string;
  split: string;
  questions: number;
  recall: Record<string, number>;
  by_category: Record<string, Record<string, number>>;
  context_evidence_recall: number;
  context_by_category: Record<string, number>;
  context_tokens_avg: number;
  retrieve_ms_p50: number;
  retrieve_ms_p95: number;
  /** Mean CPU time of this process per `retrieve`: unlike wall time, not inflated by other processes. */
  retrieve_cpu_ms_mean: number;
}

export const SPLITS: Record<string, (index: number) => boolean> = {
  "tune 0-2": (i) => i <= 2,
  "check 3-4": (i) => i >= 3,
};

const ks = [5, 10, 20];

export async function ingestOnce(
  path: string,
  conversations: readonly LocomoConversation[],
  embedder: Embedder,
) {
  if (existsSync(path)) return;
  const engram = await createEngram({ path, embedder, background: false });
  for (const c of conversations) {
    await ingestLocomo(engram, c, { userId: `locomo/${c.sampleId}`, afterSession: () => engram.flush() });
  }
  await engram.close();
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number) : 0;
}

export async function measureVariant(
  path: string,
  conversations: readonly LocomoConversation[],
  embedder: Embedder,
  variant: QualityVariant,
  budgetTokens = 1500,
): Promise<QualityRow[]> {
  const engram = await createEngram({ path, embedder, background: false, ...variant.options });
  const rows: QualityRow[] = [];
  try {
    for (const [split, inSplit] of Object.entries(SPLITS)) {
      const acc = recallAccumulator(ks);
      const inContext = meanAccumulator();
      const tokens: number[] = [];
      const times: number[] = [];
      let cpuMs = 0;
      for (const [index, c] of conversations.entries()) {
        if (!inSplit(index)) continue;
        const userId = `locomo/${c.sampleId}`;
        const textOf = new Map(c.turns.map((t) => [t.diaId, turnContent(t)]));
        for (const q of c.qa) {
          const gold = goldTurnIds(q.evidence, new Set(textOf.keys()));
          if (!isEligible(q.category, gold)) continue;
          const results = await engram.search({ userId, query: q.question, limit: 20, kinds: ["message"] });
          acc.add(
            q.category,
            gold,
            results.map((r) => String(r.memory.metadata.diaId)),
          );
          await embedder.embed([q.question]); // remembered before timing, as in the other variants
          const cpu = process.cpuUsage();
          const start = performance.now();
          const context = await engram.retrieve({ userId, query: q.question, budgetTokens });
          times.push(performance.now() - start);
          cpuMs += cpuMsSince(cpu);
          tokens.push(context.context.tokens);
          const texts = gold.map((id) => textOf.get(id) as string);
          inContext.add(q.category, contextEvidenceRecall(texts, context.text, sanitizeMemoryText));
        }
      }
      const s = acc.summary();
      const ctx = inContext.summary();
      times.sort((a, b) => a - b);
      rows.push({
        variant: variant.name,
        split,
        questions: s.questions,
        recall: s.recall,
        by_category: Object.fromEntries(Object.entries(s.by_category).map(([k, v]) => [k, v.recall])),
        context_evidence_recall: ctx.all,
        context_by_category: ctx.by_category,
        context_tokens_avg: Math.round(tokens.reduce((a, b) => a + b, 0) / Math.max(1, tokens.length)),
        retrieve_ms_p50: Math.round(percentile(times, 0.5) * 100) / 100,
        retrieve_ms_p95: Math.round(percentile(times, 0.95) * 100) / 100,
        retrieve_cpu_ms_mean: Math.round((cpuMs / Math.max(1, times.length)) * 100) / 100,
      });
    }
  } finally {
    await engram.close();
  }
  return rows;
}

export function formatQualityRow(r: QualityRow): string {
  const f = (x: number | undefined) => (x ?? 0).toFixed(3);
  const cats = ["1", "2", "3", "4"].map(
    (c) => `c${c} ${f(r.by_category[c]?.["10"])}/${f(r.context_by_category[c])}`,
  );
  return (
    `${r.variant.padEnd(24)} ${r.split.padEnd(9)} @5/10/20 ${f(r.recall["5"])} ${f(r.recall["10"])} ${f(r.recall["20"])}` +
    ` | ctx ${f(r.context_evidence_recall)} at ${r.context_tokens_avg} tok | ${cats.join(" ")} | retrieve p50 ${r.retrieve_ms_p50} ms`
  );
}

/**
 * The ablation: each stage of the query path switched off (or changed) alone, one switch of
 * `createEngram({ retrieval, policy })` away from the defaults (the first). `pnpm bench` runs every
 * one, so a variant added here is measured there too.
 */
export const QUALITY_VARIANTS: readonly QualityVariant[] = [
  { name: "default", options: {} },
  {
    name: "full-text channel off",
    options: { retrieval: { fusion: { weights: { fulltext: 0, vector: 1 } } } },
  },
  { name: "vector channel off", options: { retrieval: { fusion: { weights: { fulltext: 1, vector: 0 } } } } },
  { name: "feedback off", options: { retrieval: { feedback: 0 } } },
  { name: "content prior off", options: { retrieval: { contentPrior: 0 } } },
  { name: "question prior off", options: { retrieval: { questionPrior: 0 } } },
  { name: "speaker prior off", options: { retrieval: { speakerPrior: 0 } } },
  { name: "speaker query off", options: { retrieval: { speakerQuery: false } } },
  { name: "when prior off", options: { retrieval: { whenPrior: 0 } } },
  { name: "range prior off", options: { retrieval: { rangePrior: 0 } } },
  { name: "time notes off", options: { retrieval: { timeNotes: false } } },
  { name: "segments off", options: { retrieval: { segments: false } } },
  { name: "fact evidence on", options: { retrieval: { factEvidence: true } } },
  { name: "rerank off", options: { retrieval: { rerank: false } } },
  { name: "mmr off", options: { policy: { mmrLambda: 1 } } },
  { name: "threshold 0.2", options: { policy: { relativeThreshold: 0.2 } } },
  { name: "neighbours question", options: { retrieval: { neighbours: "question" } } },
  { name: "neighbours always", options: { retrieval: { neighbours: "always" } } },
  { name: "turns 20", options: { retrieval: { contextTurns: 20 } } },
  { name: "recent 0", options: { retrieval: { recentTurns: 0 } } },
];

/** Values tried for the tuned constants, on conversations 0-2 (docs/decisions/0004-retrieval-tuning-record.md has the figures). */
export const TUNING_VARIANTS: readonly QualityVariant[] = [
  ...[0.5, 1, 3].map((v) => ({ name: `question ${v}`, options: { retrieval: { questionPrior: v } } })),
  ...[0.5, 1, 3].map((v) => ({ name: `when ${v}`, options: { retrieval: { whenPrior: v } } })),
  ...[1, 5].map((v) => ({ name: `range ${v}`, options: { retrieval: { rangePrior: v } } })),
  ...[0.8, 1.25].map((v) => ({
    name: `vector weight ${v}`,
    options: { retrieval: { fusion: { weights: { fulltext: 1, vector: v } } } },
  })),
];

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const { values } = parseArgs({
    options: {
      data: { type: "string", default: "../shared/data/locomo/locomo-dev.json" },
      db: { type: "string", default: ".engram/bench-quality" },
      variant: { type: "string", multiple: true },
    },
  });
  const conversations = parseLocomo(JSON.parse(await readFile(values.data as string, "utf8")));
  mkdirSync(values.db as string, { recursive: true });
  const embedder = rememberingEmbedder();
  const path = join(values.db as string, "tiers.db");
  const start = Date.now();
  await ingestOnce(path, conversations, embedder);
  console.error(`store ready in ${Date.now() - start} ms`);

  const variants = [...QUALITY_VARIANTS, ...TUNING_VARIANTS];
  for (const v of variants.filter((v) => !values.variant || values.variant.includes(v.name))) {
    for (const row of await measureVariant(path, conversations, embedder, v))
      console.log(formatQualityRow(row));
  }
}
