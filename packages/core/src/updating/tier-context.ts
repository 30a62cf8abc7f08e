import type { MemoryRecord } from "../model/index.js";
import type { EngineContext } from "../runtime/index.js";
import type { ExtractedFact } from "./extract-facts.js";
import type { Page } from "./pages.js";
import type { Correction } from "./parse-correction.js";
import type { Policy } from "./policy.js";

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

export interface TierContext extends EngineContext {
  readonly policy: Policy;
  readonly extractor: Extractor;
}
