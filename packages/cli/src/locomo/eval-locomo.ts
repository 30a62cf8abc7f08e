import { readFile } from "node:fs/promises";
import {
  createEngram,
  DEFAULT_CONTEXT_BUDGET,
  type Embedder,
  type Engram,
  type FusionConfig,
  type LanguageModel,
  type RetrievalOptions,
  type StoragePort,
  sanitizeMemoryText,
  ValidationError,
} from "@engram/core";
import { defaultTokenizer } from "@engram/core/integration";
import {
  contextEvidenceRecall,
  goldTurnIds,
  isEligible,
  meanAccumulator,
  recallAccumulator,
} from "./evidence-recall.js";
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
  /** A storage backend instead of the SQLite file at `dbPath` (e.g. a Qdrant store). */
  storage?: StoragePort;
  ks: number[];
  /**
   * `offline` (default): USE-lite vectors + full-text; `none`: full-text only; or an embedder, e.g. one
   * shared by two runs that compare backends, so each text is embedded once.
   */
  embedder?: "offline" | "none" | Embedder;
  fusion?: FusionConfig;
  /** Token budget of the memory context assembled per question. Default 1,500. */
  budgetTokens?: number;
  /** A language model for tier work (summaries, persona); default: the offline extractor. */
  llm?: LanguageModel;
  /** Run the tiered engine during ingest (default true); false stores raw turns only. */
  tiers?: boolean;
  /** Index each turn with the facts the offline rules read from it (createEngram's `factKeys`). */
  factKeys?: boolean;
  /** Query-path settings (the engine's defaults otherwise). */
  retrieval?: RetrievalOptions;
  /** Keep conversations the store already holds whole (trying query settings on one ingest). */
  reuse?: boolean;
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
    if (options.reuse && (await engram.stats({ userId })).byKind.message === c.turns.length) {
      done += c.turns.length;
      continue;
    }
    await engram.forget({ userId });
    await ingestLocomo(engram, c, {
      userId,
      onProgress: (d) => options.onProgress?.("ingest", done + d, total),
      // Tier work after each session, as the background worker would do for a live agent.
      afterSession: () => engram.flush(),
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
  let modelCalls = 0;
  const budgetTokens = options.budgetTokens ?? DEFAULT_CONTEXT_BUDGET;
  const turns = conversations.reduce((n, c) => n + c.turns.length, 0);
  const engram = await createEngram({
    ...(options.storage ? { storage: options.storage } : { path: options.dbPath }),
    background: false,
    tiers: options.tiers ?? true,
    ...(options.factKeys ? { factKeys: true } : {}),
    ...(options.embedder === "none"
      ? { embedder: null }
      : typeof options.embedder === "object"
        ? { embedder: options.embedder }
        : {}),
    ...(options.retrieval || options.fusion
      ? { retrieval: { ...options.retrieval, ...(options.fusion ? { fusion: options.fusion } : {}) } }
      : {}),
    ...(options.llm ? { llm: options.llm } : {}),
    onModelCall: () => {
      modelCalls++;
    },
  });
  try {
    const ingestStart = process.hrtime.bigint();
    await ingestAll(engram, conversations, options);
    const ingestMs = ms(ingestStart);
    const acc = recallAccumulator(ks);
    const inContext = meanAccumulator();
    const latencies: number[] = [];
    const retrieveLatencies: number[] = [];
    const contextTokens: number[] = [];
    const fullTokens: number[] = [];
    const questions = conversations.flatMap((c) => c.qa.map((q) => ({ c, q })));
    const turnTexts = new Map(
      conversations.map((c) => [c.sampleId, new Map(c.turns.map((t) => [t.diaId, turnContent(t)]))]),
    );
    const fullContext = new Map(conversations.map((c) => [c.sampleId, fullConversationTokens(c.turns)]));
    let done = 0;
    for (const { c, q } of questions) {
      const textOf = turnTexts.get(c.sampleId) as Map<string, string>;
      const gold = goldTurnIds(q.evidence, new Set(textOf.keys()));
      options.onProgress?.("query", ++done, questions.length);
      if (!isEligible(q.category, gold)) continue;
      const start = process.hrtime.bigint();
      const results = await engram.search({
        userId: `locomo/${c.sampleId}`,
        query: q.question,
        limit: ks.at(-1) as number,
        kinds: ["message"], // turn-level units: one result, one turn id
      });
      latencies.push(ms(start));
      acc.add(
        q.category,
        gold,
        results.map((r) => String(r.memory.metadata.diaId)),
      );
      const retrieveStart = process.hrtime.bigint();
      const context = await engram.retrieve({
        userId: `locomo/${c.sampleId}`,
        query: q.question,
        budgetTokens,
      });
      retrieveLatencies.push(ms(retrieveStart));
      contextTokens.push(context.context.tokens);
      const texts = gold.map((id) => textOf.get(id) as string);
      inContext.add(q.category, contextEvidenceRecall(texts, context.text, sanitizeMemoryText));
      fullTokens.push(fullContext.get(c.sampleId) as number);
    }
    latencies.sort((a, b) => a - b);
    retrieveLatencies.sort((a, b) => a - b);
    const mean = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));
    const held = inContext.summary();
    return {
      ...acc.summary(),
      context_evidence_recall: held.all,
      context_evidence_recall_by_category: held.by_category,
      context_tokens_avg: mean(contextTokens),
      full_context_tokens_avg: mean(fullTokens),
      ingest_ms: Math.round(ingestMs),
      llm_calls: modelCalls,
      llm_calls_per_turn: Math.round((modelCalls / Math.max(1, turns)) * 1000) / 1000,
      tiers: await tierCounts(engram, conversations),
      query_ms_p50: Math.round(percentile(latencies, 0.5) * 100) / 100,
      query_ms_p95: Math.round(percentile(latencies, 0.95) * 100) / 100,
      // `retrieve` with its query embedding: the whole cost of a context per question.
      retrieve_ms_p50: Math.round(percentile(retrieveLatencies, 0.5) * 100) / 100,
      retrieve_ms_p95: Math.round(percentile(retrieveLatencies, 0.95) * 100) / 100,
      config: {
        conversations: conversations.length,
        unit: "turn (one message memory per dialogue turn; 1 turn id per result)",
        context_tokens: `engram.retrieve() memory block per question, budget ${budgetTokens} ${defaultTokenizer.id} tokens`,
        context_evidence_recall:
          "share of a question's evidence turns whose text (as the context renders it) is in that block",
        ...engram.config,
        k: ks,
      },
    };
  } finally {
    await engram.close();
  }
}

/** What the tiers made of the conversations: segments and facts (current and superseded). */
async function tierCounts(engram: Engram, conversations: readonly LocomoConversation[]) {
  let segments = 0;
  let facts = 0;
  for (const c of conversations) {
    const stats = await engram.stats({ userId: `locomo/${c.sampleId}` });
    segments += stats.byKind.segment ?? 0;
    facts += stats.byKind.fact ?? 0;
  }
  return { segments, facts };
}

function fullConversationTokens(turns: readonly LocomoTurn[]): number {
  return defaultTokenizer.count(turns.map((t) => contextLine(t.at, t.speaker, turnContent(t))).join("\n"));
}
