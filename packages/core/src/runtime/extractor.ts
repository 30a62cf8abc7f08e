import type { MemoryRecord } from "../model/index.js";

// The Extractor port: where tier work gets its judgement (persona facts, page grouping, feedback), from
// the offline rules or a language model. Its vocabulary lives here, beneath the features that use it.

/** A dialogue page: a user turn and the assistant turns answering it (MemoryOS's QA pair). */
export interface Page {
  /** The id of the page's first message. */
  readonly id: string;
  readonly messages: readonly MemoryRecord[];
}

export type FactSubject = "user" | "assistant";

export interface ExtractedFact {
  /** "user": user knowledge and profile; "assistant": what the assistant said or did for this user. */
  subject: FactSubject;
  /** Normalised attribute: "lives_in", "works_as", "sister.occupation", "likes", "assistant.recommended"... */
  slot: string;
  /** Normalised value: "Berlin", "doctor", "hiking". */
  value: string;
  /** A readable third-person sentence: "The user lives in Berlin." */
  text: string;
  /** Single-valued slot: a new value supersedes the old one (lives_in, works_as, name, x.occupation...). */
  single: boolean;
  /** A retraction of (slot, value): "I no longer live in Munich". */
  negated: boolean;
  /** 0..1, set by the rule that matched. */
  confidence: number;
  /** Id of the message the fact came from. */
  evidence: string;
}

export interface Correction {
  /** The new truth: each fact supersedes the current value of its slot. */
  facts: ExtractedFact[];
  /** Values stated to be wrong ("not a biologist" -> { slot: "sister.occupation", value: "biologist" }). */
  retract: Array<{ slot: string; value: string }>;
  /** Content words to find the affected raw memories, retracted values first. */
  keywords: string[];
  /** Rewrites of candidate memories (from a language model): applied as versioned updates. */
  edits?: Array<{ id: string; text: string }>;
}

/** A page's summary, keywords and target segment (null: start a new segment). */
export interface PageAssignment {
  readonly pageId: string;
  readonly summary: string;
  readonly keywords: string[];
  readonly segmentId: string | null;
  /** For a new topic: pages of one batch with the same topic start one segment together. */
  readonly topic?: string;
}

/**
 * Where tier work gets its judgement: the offline extractor (rules, extractive summaries) or a language
 * model. `assign` is optional: without it pages are grouped by cos + Jaccard >= theta.
 */
export interface Extractor {
  readonly name: string;
  assign?(pages: readonly Page[], segments: readonly MemoryRecord[]): Promise<PageAssignment[]>;
  persona(messages: readonly MemoryRecord[], existing: readonly MemoryRecord[]): Promise<ExtractedFact[]>;
  feedback(text: string, evidenceId: string, candidates: readonly MemoryRecord[]): Promise<Correction>;
}
