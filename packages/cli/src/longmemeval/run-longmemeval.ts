import { sanitizeMemoryText, ValidationError } from "@engram/core";
import { answerInContext, Means, sessionRecallAll, shownInContext, turnRecall } from "./lme-metrics.js";
import {
  isoDate,
  LONGMEMEVAL_TYPES,
  type LongMemEvalItem,
  type LongMemEvalType,
} from "./load-longmemeval.js";

/** Results searched per question: enough for session recall@10 over long turns. */
export const SEARCH_K = 50;
/** Questions per type in the tuning half (the first ones in file order); the rest are the check half. */
const TUNING_QUESTIONS = 5;

/** One turn of a question's history as every system stores it. */
export interface LongMemEvalTurnRecord {
  /** `session#index`: the turn's session and its position there. */
  readonly id: string;
  readonly sessionId: string;
  readonly role: "user" | "assistant";
  readonly content: string;
  /** The session's date plus a second per turn. */
  readonly at: string;
}

/** A session of a question's history, in the order sessions were held. */
export interface LongMemEvalSession {
  readonly id: string;
  readonly at: string;
  readonly turns: readonly LongMemEvalTurnRecord[];
}

/**
 * A system under evaluation: it stores each question's history as that question's own user, finds turns
 * for the question, and gives the context a model would read. Engram is one; the benchmark's peers
 * (BM25 alone, LangGraph's store, mem0) are others, measured by the same code.
 */
export interface LongMemEvalSystem {
  /** Whether the question's history is already stored (a reused store); its ingest is then skipped. */
  has?(item: LongMemEvalItem, turns: number): Promise<boolean>;
  ingest(item: LongMemEvalItem, sessions: readonly LongMemEvalSession[]): Promise<void>;
  /** Turn ids (`session#index`, or null for a result that is no turn), best first. */
  search(item: LongMemEvalItem, k: number): Promise<(string | null)[]>;
  context(item: LongMemEvalItem, budgetTokens: number): Promise<{ text: string; tokens: number }>;
}

export const turnId = (session: string, index: number) => `${session}#${index}`;
const sessionOf = (turn: string | null) => (turn === null ? null : turn.slice(0, turn.lastIndexOf("#")));

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

/** A question's sessions in the order they were held (by date; the file's order among equal dates), blank turns left out. */
export function chronologicalSessions(item: LongMemEvalItem): LongMemEvalSession[] {
  return item.haystack_sessions
    .map((turns, i) => ({
      turns,
      id: item.haystack_session_ids[i] as string,
      at: isoDate(item.haystack_dates[i] as string),
      i,
    }))
    .sort((a, b) => (a.at === b.at ? a.i - b.i : a.at < b.at ? -1 : 1))
    .map(({ turns, id, at }) => {
      const base = Date.parse(at);
      return {
        id,
        at,
        turns: turns.flatMap((t, i) =>
          t.content.trim()
            ? [
                {
                  id: turnId(id, i),
                  sessionId: id,
                  role: t.role,
                  content: t.content,
                  at: new Date(base + i * 1000).toISOString(),
                },
              ]
            : [],
        ),
      };
    });
}

export const countTurns = (item: LongMemEvalItem) =>
  item.haystack_sessions.reduce((n, s) => n + s.filter((t) => t.content.trim()).length, 0);

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

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return (
    Math.round((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number) * 100) / 100
  );
}

const elapsedMs = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

interface QuestionRow {
  readonly id: string;
  readonly type: LongMemEvalType;
  readonly half: "tune" | "check";
  readonly figures: Record<string, number | null>;
}

export interface RunLongMemEvalOptions {
  readonly budgetTokens: number;
  /** Called with a question's date before its history's sessions are stored and before it is asked. */
  readonly setNow?: (iso: string) => void;
  readonly onProgress?: (phase: string, done: number, total: number) => void;
}

/**
 * Every question through one system: its history stored (unless already there), then `search` (k 50)
 * and `context`; per question the session recall_all@5/@10, turn recall@10, the evidence the context
 * shows and whether a short answer is in it; means per type, overall, and for the tuning half (the first
 * five questions of each type) and the check half apart; search, context and ingest timings.
 */
export async function runLongMemEval(
  questions: readonly { item: LongMemEvalItem; half: "tune" | "check" }[],
  system: LongMemEvalSystem,
  options: RunLongMemEvalOptions,
): Promise<Record<string, unknown>> {
  if (questions.length === 0)
    throw new ValidationError("eval longmemeval: no question matches --types/--limit");
  const rows: QuestionRow[] = [];
  const searchMs: number[] = [];
  const contextMs: number[] = [];
  let ingestMs = 0;
  let ingestedTurns = 0;
  const totalTurns = questions.reduce((n, q) => n + countTurns(q.item), 0);
  let stored = 0;
  for (const [i, { item, half }] of questions.entries()) {
    const turns = countTurns(item);
    if (!(await system.has?.(item, turns))) {
      const start = process.hrtime.bigint();
      await system.ingest(item, chronologicalSessions(item));
      ingestMs += elapsedMs(start);
      ingestedTurns += turns;
    }
    stored += turns;
    options.onProgress?.("ingest", stored, totalTurns);
    options.setNow?.(isoDate(item.question_date));
    const searchStart = process.hrtime.bigint();
    const ranked = await system.search(item, SEARCH_K);
    searchMs.push(elapsedMs(searchStart));
    const contextStart = process.hrtime.bigint();
    const context = await system.context(item, options.budgetTokens);
    contextMs.push(elapsedMs(contextStart));
    const evidence = evidenceTurns(item);
    const rankedSessions = ranked.map(sessionOf);
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
              ranked,
              10,
            )
          : null,
        context_evidence_recall: evidence.length ? shown / evidence.length : null,
        answer_in_context: answerInContext(item.answer, context.text),
        context_tokens: context.tokens,
      },
    });
    options.onProgress?.("query", i + 1, questions.length);
  }
  const means = (subset: readonly QuestionRow[]) => {
    const m = new Means();
    for (const row of subset) m.add(row.type, row.figures);
    const { all, ...byType } = m.summary();
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
    search_ms_p50: percentile(searchMs, 0.5),
    search_ms_p95: percentile(searchMs, 0.95),
    // The context with its query embedding: the whole cost of a context per question.
    retrieve_ms_p50: percentile(contextMs, 0.5),
    retrieve_ms_p95: percentile(contextMs, 0.95),
    ingest_turns: ingestedTurns,
    ingest_turns_per_s: ingestedTurns ? Math.round((ingestedTurns / (ingestMs / 1000)) * 10) / 10 : null,
    per_question: rows.map((r) => ({ id: r.id, type: r.type, half: r.half, ...r.figures })),
  };
}
