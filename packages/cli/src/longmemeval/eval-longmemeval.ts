import {
  createEngram,
  DEFAULT_CONTEXT_BUDGET,
  type Embedder,
  type Engram,
  type RetrievalOptions,
  type StoragePort,
  ValidationError,
} from "@engram/core";
import { defaultTokenizer } from "@engram/core/integration";
import { type LongMemEvalItem, type LongMemEvalType, readLongMemEval } from "./load-longmemeval.js";
import { type LongMemEvalSystem, runLongMemEval, SEARCH_K, selectQuestions } from "./run-longmemeval.js";

export { selectQuestions };

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
  /** Index each turn with the facts the offline rules read from it (createEngram's `factKeys`). */
  readonly factKeys?: boolean;
  /**
   * Keep a question's user when the store already holds all of its turns (trying query settings on one
   * ingest); its ingest figures are then left out.
   */
  readonly reuse?: boolean;
  readonly onProgress?: (phase: string, done: number, total: number) => void;
}

const userOf = (item: LongMemEvalItem) => `lme/${item.question_id}`;

/** Engram as the system under evaluation: each question its own user, asked with now = its date. */
function engramSystem(engram: Engram, setNow: (iso: string) => void): LongMemEvalSystem {
  return {
    async has(item, turns) {
      return (await engram.stats({ userId: userOf(item) })).byKind.message === turns;
    },
    async ingest(item, sessions) {
      const userId = userOf(item);
      await engram.forget({ userId });
      // Each session with the clock at its date while it is added and its tier work runs.
      for (const session of sessions) {
        setNow(session.at);
        const messages = session.turns.map((t) => ({
          role: t.role,
          content: t.content,
          at: t.at,
          metadata: { lmeTurn: t.id },
        }));
        if (messages.length) await engram.add({ userId, sessionId: session.id, messages });
        await engram.flush();
      }
    },
    async search(item, k) {
      const results = await engram.search({
        userId: userOf(item),
        query: item.question,
        limit: k,
        kinds: ["message"],
      });
      return results.map((r) => (r.memory.metadata.lmeTurn as string | undefined) ?? null);
    },
    async context(item, budgetTokens) {
      const context = await engram.retrieve({
        userId: userOf(item),
        query: item.question,
        budgetTokens,
        recordVisits: false,
      });
      return { text: context.text, tokens: context.context.tokens };
    },
  };
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
  const setNow = (iso: string) => {
    now = iso;
  };
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
    ...(options.factKeys ? { factKeys: true } : {}),
  });
  try {
    const { has, ...fresh } = engramSystem(engram, setNow);
    const doc = await runLongMemEval(questions, options.reuse ? { ...fresh, has } : fresh, {
      budgetTokens,
      setNow,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    return {
      ...doc,
      config: {
        search: `engram.search k ${SEARCH_K}, message memories; session recall_all@k over the first k distinct sessions`,
        context: `engram.retrieve, budget ${budgetTokens} ${defaultTokenizer.id} tokens, now = the question's date`,
        context_evidence_recall:
          "share of a question's evidence turns the context shows whole, or (250 characters or more) by a passage of 200 consecutive characters",
        ingest:
          "each session in date order, its turns a second apart, tier work after each session, with embedding",
        ...engram.config,
      },
    };
  } finally {
    await engram.close();
  }
}
