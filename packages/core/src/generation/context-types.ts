import type { CacheSet } from "../model/index.js";
import type { Tokenizer } from "./tokenizer.js";

/** The inputs of context assembly: what retrieval found, best first, and the budget. */
export interface ContextProfileItem {
  key: string;
  value: string;
  confidence: number;
}
export interface ContextFact {
  id: string;
  text: string;
  subject: "user" | "assistant";
  validFrom: string | null;
  score: number;
}
export interface ContextTurn {
  id: string;
  text: string;
  role: string | null;
  name: string | null;
  at: string | null;
  /** Shown after the text: what its relative dates resolve to, `(yesterday = 7 May 2023)`. */
  note?: string | null;
}
export interface ContextPage extends ContextTurn {
  score: number;
  sessionId: string | null;
  /** The turn this one answers (`Name: text`), shown before it when the budget allows; else null. */
  before?: string | null;
}

/** A skill (procedure) whose trigger matched the query, rendered as one line by its module. */
export interface ContextSkill {
  id: string;
  text: string;
  score: number;
}

export interface ContextInput {
  /** ISO 8601; rendered as the current time. */
  now: string;
  userName?: string | null;
  profile: readonly ContextProfileItem[];
  /** Best first. */
  facts: readonly ContextFact[];
  /** Retrieved dialogue turns, best first. */
  pages: readonly ContextPage[];
  /** Skills whose trigger matched the query, best first. Default none. */
  skills?: readonly ContextSkill[];
  /** Short-term turns, oldest first. */
  recent: readonly ContextTurn[];
  /** The share of `budgetTokens` the recent turns may spend at most, from 0 to 1. Default 1. */
  recentShare?: number;
  /** A non-negative integer. */
  budgetTokens: number;
  tokenizer?: Tokenizer;
  /**
   * Where sanitised texts and token counts are kept between assemblies (the engine passes its own, cleared
   * by `forget`). Without it nothing is kept.
   */
  caches?: CacheSet;
}
