// The LoCoMo peer table: every system answers every eligible dev question once with the query embedded
// inside the call (its search latency) and once with the vector remembered (latency without the
// embedding); recall@1..20 at turn level and the evidence in a 1,500-token context.
import {
  contextEvidenceRecall,
  goldTurnIds,
  isEligible,
  type LocomoConversation,
  type LocomoQuestion,
  meanAccumulator,
  recallAccumulator,
  turnContent,
} from "@engram/cli/locomo";
import { type ContextPage, sanitizeMemoryText } from "@engram/core";
import { assembleContext } from "@engram/core/integration";
import type { RememberingEmbedder } from "./locomo-embedder.js";
import type { PeerSystem, RenderedContext } from "./peer-system.js";
import { cpuMsSince, type Latency, summarize } from "./stats.js";

export const CURVE_KS = Array.from({ length: 20 }, (_, i) => i + 1);
/** Hits a peer hands to context assembly: more than 1,500 tokens hold (about 35 turns). */
export const CONTEXT_HITS = 50;

export interface PeerFigures {
  readonly system: string;
  readonly method: string;
  readonly questions: number;
  /** Turn-level evidence recall@k for k = 1..20, overall. */
  readonly recall: Record<string, number>;
  readonly by_category: Record<string, { n: number; recall: Record<string, number> }>;
  readonly context: "retrieve" | "top hits";
  readonly context_evidence_recall: number;
  readonly context_by_category: Record<string, number>;
  readonly context_tokens_avg: number;
  /** search k 20, the query embedded inside the call. */
  readonly searchIncl: Latency;
  /** search k 20, the query's vector remembered from the first pass. */
  readonly searchExcl: Latency;
  /** Engram's `retrieve` (budget 1,500), the query embedded inside the call. */
  readonly retrieveIncl?: Latency;
}

export interface EligibleQuestion {
  readonly c: LocomoConversation;
  readonly q: LocomoQuestion;
  readonly gold: readonly string[];
  readonly goldTexts: readonly string[];
}

/** Categories 1-4 with at least one evidence turn, as the dataset's README defines recall@k. */
export function eligibleQuestions(conversations: readonly LocomoConversation[]): EligibleQuestion[] {
  return conversations.flatMap((c) => {
    const textOf = new Map(c.turns.map((t) => [t.diaId, turnContent(t)]));
    return c.qa.flatMap((q) => {
      const gold = goldTurnIds(q.evidence, new Set(textOf.keys()));
      if (!isEligible(q.category, gold)) return [];
      return [{ c, q, gold, goldTexts: gold.map((id) => textOf.get(id) as string) }];
    });
  });
}

/**
 * A peer's context: its hits, best first, as retrieved turns of Engram's own context assembly (same
 * renderer, tokenizer and budget; days once, turns in rank order while the budget lasts), with no
 * profile, facts or recent turns.
 */
export function hitsContext(
  c: LocomoConversation,
  ids: readonly string[],
  budgetTokens: number,
): RenderedContext {
  const byId = new Map(c.turns.map((t) => [t.diaId, t]));
  const pages: ContextPage[] = ids.flatMap((id, rank) => {
    const t = byId.get(id);
    if (!t) return [];
    const role = t.speaker === c.speakerA ? "user" : "assistant";
    const sessionId = `session_${t.session}`;
    return [
      { id, text: turnContent(t), role, name: t.speaker, at: t.at, score: ids.length - rank, sessionId },
    ];
  });
  const now = new Date().toISOString();
  const block = assembleContext({ now, profile: [], facts: [], pages, recent: [], budgetTokens });
  return { text: block.text, tokens: block.tokens };
}

/** Wall times of one kind of call, and the CPU time this process spent in them. */
type Samples = { ms: number[]; cpuMs: number };
const samples = (): Samples => ({ ms: [], cpuMs: 0 });

async function timed<T>(into: Samples, fn: () => Promise<T>): Promise<T> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = await fn();
  into.ms.push(performance.now() - start);
  into.cpuMs += cpuMsSince(cpu);
  return value;
}

export async function measurePeer(
  system: PeerSystem,
  questions: readonly EligibleQuestion[],
  embedder: RememberingEmbedder,
  budgetTokens: number,
): Promise<PeerFigures> {
  const acc = recallAccumulator(CURVE_KS);
  const inContext = meanAccumulator();
  const tokens: number[] = [];
  const incl = samples();
  const excl = samples();
  const retrieve = samples();
  for (const { c, q, gold, goldTexts } of questions) {
    embedder.live = true;
    const ids = await timed(incl, () => system.search(c, q.question, 20));
    const retrieveContext = system.context;
    const ownContext = retrieveContext
      ? await timed(retrieve, () => retrieveContext(c, q.question, budgetTokens))
      : null;
    embedder.live = false;
    await timed(excl, () => system.search(c, q.question, 20));
    const context =
      ownContext ?? hitsContext(c, await system.search(c, q.question, CONTEXT_HITS), budgetTokens);
    acc.add(q.category, gold, ids);
    inContext.add(q.category, contextEvidenceRecall(goldTexts, context.text, sanitizeMemoryText));
    tokens.push(context.tokens);
  }
  const s = acc.summary();
  const ctx = inContext.summary();
  return {
    system: system.name,
    method: system.method,
    questions: s.questions,
    recall: s.recall,
    by_category: s.by_category,
    context: system.context ? "retrieve" : "top hits",
    context_evidence_recall: ctx.all,
    context_by_category: ctx.by_category,
    context_tokens_avg: Math.round(tokens.reduce((a, b) => a + b, 0) / Math.max(1, tokens.length)),
    searchIncl: summarize(incl.ms, incl.cpuMs),
    searchExcl: summarize(excl.ms, excl.cpuMs),
    ...(retrieve.ms.length ? { retrieveIncl: summarize(retrieve.ms, retrieve.cpuMs) } : {}),
  };
}
