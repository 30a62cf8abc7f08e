import {
  createEngram,
  DEFAULT_CONTEXT_BUDGET,
  type Embedder,
  type Engram,
  type RetrievalOptions,
  type StoragePort,
  sanitizeMemoryText,
  ValidationError,
} from "@engram/core";
import { defaultTokenizer } from "@engram/core/integration";
import { answerInContext, Means, sessionRecallAll, shownInContext, turnRecall } from "./lme-metrics.js";
import {
  isoDate,
  LONGMEMEVAL_TYPES,
  type LongMemEvalItem,
  type LongMemEvalType,
  readLongMemEval,
} from "./load-longmemeval.js";

export interface EvalLongMemEvalOptions {
  readonly dataPath: string;
  readonly dbPath: string;
  /** A storage backend instead of the SQLite file at `dbPath`. */
  readonly storage?: StoragePort;
  /** `offline` (default): USE-lite vectors and full text; `none`: full text only; or an embedder. */
  readonly embedder?: "offline" | "none" | Embedder;
  /** Token budget of the context assembled per question. Default 1,500. */
  readonly budgetTokens?: number;
  /** The first N questions of each type, in file order. */
  readonly limit?: number;
  readonly types?: readonly LongMemEvalType[];
  /** Query-path settings for every question (the engine's defaults otherwise). */
  readonly retrieval?: RetrievalOptions;
  /**
   * Keep a question's user when the store already holds all of its turns (trying query settings on one
   * ingest); its ingest figures are then left out.
   */
  readonly reuse?: boolean;
  readonly onProgress?: (phase: string, done: number, total: number) => void;
}

/** Results searched per question: enough for session recall@10 over long turns. */
const SEARCH_K = 50;
/** Questions per type in the tuning half (the first ones in file order); the rest are the check half. */
const TUNING_QUESTIONS = 5;

const userOf = (item: LongMemEvalItem) => `lme/${item.question_id}`;
/** A turn's id: its session and its position there. */
const turnId = (session: string, index: number) => `${session}#${index}`;

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return (
    Math.round((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number) * 100) / 100
  );
}

const elapsedMs = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/** The questions to run: the first `limit` of each wanted type, each marked with its half. */
export function selectQuestions(
  items: readonly LongMemEvalItem[],
  options: { limit?: number | undefined; types?: readonly LongMemEvalType[] | undefined },
): { item: LongMemEvalItem; half: "tune" | "check" }[] {
  const seen = new Map<string, number>();
  const wanted = new Set(options.types ?? LONGMEMEVAL_TYPES);
  const out: { item: LongMemEvalItem; half: "tune" | "check" }[] = [];
  for (const item of items) {
    const n = seen.get(item.question_type) ?? 0;
    seen.set(item.question_type, n + 1);
    if (!wanted.has(item.question_type)) continue;
    if (options.limit !== undefined && n >= options.limit) continue;
    out.push({ item, half: n < TUNING_QUESTIONS ? "tune" : "check" });
  }
  return out;
}

/** Sessions in the order they were held (by date; the file's order among equal dates). */
function chronological(item: LongMemEvalItem) {
  return item.haystack_sessions
    .map((turns, i) => ({
      turns,
      id: item.haystack_session_ids[i] as string,
      at: isoDate(item.haystack_dates[i] as string),
      i,
    }))
    .sort((a, b) => (a.at === b.at ? a.i - b.i : a.at < b.at ? -1 : 1));
}

const countTurns = (item: LongMemEvalItem) =>
  item.haystack_sessions.reduce((n, s) => n + s.filter((t) => t.content.trim()).length, 0);

/**
 * Stores a question's history as its user: each session in date order, its turns a second apart from the
 * session's date, the clock at that date while the session is added and its tier work runs.
 */
async function ingestQuestion(engram: Engram, item: LongMemEvalItem, setNow: (iso: string) => void) {
  for (const session of chronological(item)) {
    setNow(session.at);
    const base = Date.parse(session.at);
    const messages = session.turns.flatMap((t, i) =>
      t.content.trim()
        ? [
            {
              role: t.role,
              content: t.content,
              at: new Date(base + i * 1000).toISOString(),
              metadata: { lmeTurn: turnId(session.id, i) },
            },
          ]
        : [],
    );
    if (messages.length) await engram.add({ userId: userOf(item), sessionId: session.id, messages });
    await engram.flush();
  }
}

/** A question's evidence turns (`has_answer`), with their ids. */
function evidenceTurns(item: LongMemEvalItem): { id: string; text: string }[] {
  const out: { id: string; text: string }[] = [];
  for (const [s, session] of item.haystack_sessions.entries()) {
    for (const [j, t] of session.entries()) {
      if (t.has_answer) out.push({ id: turnId(item.haystack_session_ids[s] as string, j), text: t.content });
    }
  }
  return out;
}

interface QuestionRow {
  readonly id: string;
  readonly type: LongMemEvalType;
  readonly half: "tune" | "check";
  readonly figures: Record<string, number | null>;
}

/**
 * LongMemEval through the engine a user gets: each question its own user, its sessions added in order
 * with their dates, "now" set to the question's date; then `search` (k 50, turns) and `retrieve` (the
 * context within the budget). Figures per question type and overall, and for the tuning half (the first
 * five questions of each type) and the check half (the rest) apart.
 */
export async function evalLongMemEval(options: EvalLongMemEvalOptions): Promise<Record<string, unknown>> {
  const items = await readLongMemEval(options.dataPath);
  const questions = selectQuestions(items, options);
  if (questions.length === 0)
    throw new ValidationError("eval longmemeval: no question matches --types/--limit");
  const budgetTokens = options.budgetTokens ?? DEFAULT_CONTEXT_BUDGET;
  let now = new Date().toISOString();
  const engram = await createEngram({
    ...(options.storage ? { storage: options.storage } : { path: options.dbPath }),
    background: false,
    clock: () => new Date(now),
    ...(options.embedder === "none"
      ? { embedder: null }
      : typeof options.embedder === "object"
        ? { embedder: options.embedder }
        : {}),
    ...(options.retrieval ? { retrieval: options.retrieval } : {}),
  });
  const setNow = (iso: string) => {
    now = iso;
  };
  const rows: QuestionRow[] = [];
  const searchMs: number[] = [];
  const retrieveMs: number[] = [];
  let ingestMs = 0;
  let ingestedTurns = 0;
  try {
    const totalTurns = questions.reduce((n, q) => n + countTurns(q.item), 0);
    let stored = 0;
    for (const [i, { item, half }] of questions.entries()) {
      const userId = userOf(item);
      const turns = countTurns(item);
      const reusable = options.reuse && (await engram.stats({ userId })).byKind.message === turns;
      if (!reusable) {
        await engram.forget({ userId });
        const start = process.hrtime.bigint();
        await ingestQuestion(engram, item, setNow);
        ingestMs += elapsedMs(start);
        ingestedTurns += turns;
      }
      stored += turns;
      options.onProgress?.("ingest", stored, totalTurns);
      setNow(isoDate(item.question_date));
      const searchStart = process.hrtime.bigint();
      const results = await engram.search({ userId, query: item.question, k: SEARCH_K, kinds: ["message"] });
      searchMs.push(elapsedMs(searchStart));
      const retrieveStart = process.hrtime.bigint();
      const context = await engram.retrieve({
        userId,
        query: item.question,
        budgetTokens,
        recordVisits: false,
      });
      retrieveMs.push(elapsedMs(retrieveStart));
      const evidence = evidenceTurns(item);
      const rankedTurns = results.map((r) => (r.memory.metadata.lmeTurn as string | undefined) ?? null);
      const rankedSessions = results.map((r) => r.memory.sessionId);
      const shown = evidence.filter((e) => shownInContext(e.text, context.text, sanitizeMemoryText)).length;
      rows.push({
        id: item.question_id,
        type: item.question_type,
        half,
        figures: {
          session_recall_all_5: sessionRecallAll(rankedSessions, item.answer_session_ids, 5),
          session_recall_all_10: sessionRecallAll(rankedSessions, item.answer_session_ids, 10),
          turn_recall_10: evidence.length
            ? turnRecall(
                evidence.map((e) => e.id),
                rankedTurns,
                10,
              )
            : null,
          context_evidence_recall: evidence.length ? shown / evidence.length : null,
          answer_in_context: answerInContext(item.answer, context.text),
          context_tokens: context.context.tokens,
        },
      });
      options.onProgress?.("query", i + 1, questions.length);
    }
  } finally {
    await engram.close();
  }
  return report(rows, { searchMs, retrieveMs, ingestMs, ingestedTurns, budgetTokens, config: engram.config });
}

function report(
  rows: readonly QuestionRow[],
  run: {
    searchMs: number[];
    retrieveMs: number[];
    ingestMs: number;
    ingestedTurns: number;
    budgetTokens: number;
    config: Engram["config"];
  },
): Record<string, unknown> {
  const means = (subset: readonly QuestionRow[]) => {
    const m = new Means();
    for (const row of subset) m.add(row.type, row.figures);
    const summary = m.summary();
    const { all, ...byType } = summary;
    const count = (type: string) => subset.filter((r) => r.type === type).length;
    return {
      questions: subset.length,
      ...all,
      by_type: Object.fromEntries(
        LONGMEMEVAL_TYPES.filter((t) => byType[t]).map((t) => [t, { questions: count(t), ...byType[t] }]),
      ),
    };
  };
  return {
    ...means(rows),
    halves: {
      tune: means(rows.filter((r) => r.half === "tune")),
      check: means(rows.filter((r) => r.half === "check")),
    },
    search_ms_p50: percentile(run.searchMs, 0.5),
    search_ms_p95: percentile(run.searchMs, 0.95),
    // `retrieve` with its query embedding: the whole cost of a context per question.
    retrieve_ms_p50: percentile(run.retrieveMs, 0.5),
    retrieve_ms_p95: percentile(run.retrieveMs, 0.95),
    ingest_turns: run.ingestedTurns,
    ingest_turns_per_s: run.ingestedTurns
      ? Math.round((run.ingestedTurns / (run.ingestMs / 1000)) * 10) / 10
      : null,
    per_question: rows.map((r) => ({ id: r.id, type: r.type, half: r.half, ...r.figures })),
    config: {
      search: `engram.search k ${SEARCH_K}, message memories; session recall_all@k over the first k distinct sessions`,
      context: `engram.retrieve, budget ${run.budgetTokens} ${defaultTokenizer.id} tokens, now = the question's date`,
      context_evidence_recall:
        "share of a question's evidence turns the context shows whole, or (250 characters or more) by a passage of 200 consecutive characters",
      ingest:
        "each session in date order, its turns a second apart, tier work after each session, with embedding",
      ...run.config,
    },
  };
}
