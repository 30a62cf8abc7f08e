import { readFile } from "node:fs/promises";
import {
  createEngram,
  defaultTokenizer,
  type Engram,
  type FusionConfig,
  ValidationError,
} from "@engram/core";
import { goldTurnIds, isEligible, recallAccumulator } from "./evidence-recall.js";
import {
  ingestLocomo,
  type LocomoConversation,
  type LocomoTurn,
  parseLocomo,
  turnContent,
} from "./load-locomo.js";

export interface EvalLocomoOptions {
  dataPath: string;
  dbPath: string;
  ks: number[];
  /** `offline` (default): USE-lite vectors + full-text; `none`: full-text only. */
  embedder?: "offline" | "none";
  fusion?: FusionConfig;
  onProgress?: (phase: string, done: number, total: number) => void;
}

/** The line a retrieved turn contributes to a model's context: date, speaker, text. */
function contextLine(at: string | null, speaker: string | null, text: string): string {
  return `[${at?.slice(0, 10) ?? "undated"}] ${speaker ? `${speaker}: ` : ""}${text}`;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

async function readConversations(path: string): Promise<LocomoConversation[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    throw new ValidationError(`eval locomo: cannot read --data ${path}: ${(cause as Error).message}`, {
      cause,
    });
  }
  try {
    return parseLocomo(JSON.parse(text));
  } catch (cause) {
    if (cause instanceof SyntaxError) throw new ValidationError(`eval locomo: ${path} is not valid JSON`);
    throw cause;
  }
}

async function ingestAll(
  engram: Engram,
  conversations: readonly LocomoConversation[],
  options: EvalLocomoOptions,
) {
  const total = conversations.reduce((n, c) => n + c.turns.length, 0);
  let done = 0;
  for (const c of conversations) {
    const userId = `locomo/${c.sampleId}`;
    await engram.forget({ userId });
    await ingestLocomo(engram, c, {
      userId,
      onProgress: (d) => options.onProgress?.("ingest", done + d, total),
    });
    done += c.turns.length;
  }
}

/**
 * Evidence recall@k on a LoCoMo file: each conversation ingested as its own user (`locomo/<sample_id>`),
 * each turn one message memory; every eligible question searched once, results mapped to their turn ids
 * (one memory = one turn, so units are turn-level).
 */
export async function evalLocomo(options: EvalLocomoOptions): Promise<Record<string, unknown>> {
  const ks = [...new Set(options.ks)].sort((a, b) => a - b);
  const conversations = await readConversations(options.dataPath);
  const engram = await createEngram({
    path: options.dbPath,
    ...(options.embedder === "none" ? { embedder: null } : {}),
    ...(options.fusion ? { fusion: options.fusion } : {}),
  });
  try {
    const ingestStart = process.hrtime.bigint();
    await ingestAll(engram, conversations, options);
    const ingestMs = ms(ingestStart);
    const acc = recallAccumulator(ks);
    const latencies: number[] = [];
    const contextTokens: number[] = [];
    const fullTokens: number[] = [];
    const questions = conversations.flatMap((c) => c.qa.map((q) => ({ c, q })));
    const fullContext = new Map(conversations.map((c) => [c.sampleId, fullConversationTokens(c.turns)]));
    let done = 0;
    for (const { c, q } of questions) {
      const gold = goldTurnIds(q.evidence, new Set(c.turns.map((t) => t.diaId)));
      options.onProgress?.("query", ++done, questions.length);
      if (!isEligible(q.category, gold)) continue;
      const start = process.hrtime.bigint();
      const results = await engram.search({
        userId: `locomo/${c.sampleId}`,
        query: q.question,
        k: ks.at(-1) as number,
      });
      latencies.push(ms(start));
      acc.add(
        q.category,
        gold,
        results.map((r) => String(r.memory.metadata.diaId)),
      );
      const top10 = results.slice(0, 10).map((r) => contextLine(r.at, r.memory.name, r.text));
      contextTokens.push(defaultTokenizer.count(top10.join("\n")));
      fullTokens.push(fullContext.get(c.sampleId) as number);
    }
    latencies.sort((a, b) => a - b);
    const mean = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));
    return {
      ...acc.summary(),
      context_tokens_avg: mean(contextTokens),
      full_context_tokens_avg: mean(fullTokens),
      ingest_ms: Math.round(ingestMs),
      query_ms_p50: Math.round(percentile(latencies, 0.5) * 100) / 100,
      query_ms_p95: Math.round(percentile(latencies, 0.95) * 100) / 100,
      config: {
        conversations: conversations.length,
        unit: "turn (one message memory per dialogue turn; 1 turn id per result)",
        context_tokens: `top-10 results rendered as "[date] speaker: text", ${defaultTokenizer.id} tokens`,
        ...engram.config,
        k: ks,
      },
    };
  } finally {
    await engram.close();
  }
}

function fullConversationTokens(turns: readonly LocomoTurn[]): number {
  return defaultTokenizer.count(turns.map((t) => contextLine(t.at, t.speaker, turnContent(t))).join("\n"));
}
