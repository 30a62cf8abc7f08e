import type { z } from "zod";
import {
  type ExistingFact,
  FEEDBACK_SYSTEM,
  type FeedbackCandidate,
  type factSchema,
  feedbackPrompt,
  feedbackSchema,
  type PageInput,
  PERSONA_SYSTEM,
  personaPrompt,
  personaSchema,
  type SegmentInput,
  SUMMARIZE_SYSTEM,
  summarizePrompt,
  summarySchema,
} from "./extraction-prompts.js";
import { type LanguageModel, structuredCall } from "./structured-call.js";

export type ExtractedFact = z.output<typeof factSchema>;
export interface NewTopic {
  summary: string;
  keywords: string[];
}
export interface PageSummaries {
  pages: Array<{ id: string; summary: string; keywords: string[] }>;
  /** One per input page; `segmentId` null means the page starts a new topic. */
  assignments: Array<{ pageId: string; segmentId: string | null; newTopic?: NewTopic }>;
}
export interface FeedbackParse {
  facts: ExtractedFact[];
  retract: Array<{ slot: string; value: string }>;
  edits: Array<{ id: string; text: string }>;
}
export interface CallControl {
  abortSignal?: AbortSignal;
}

/** The model-backed operations of the updating pipeline; each is exactly one structured call (plus one retry). */
export interface LlmExtractor {
  /** Summaries, keywords and segment assignment for one eviction batch. */
  summarizePages(
    pages: readonly PageInput[],
    segments: readonly SegmentInput[],
    control?: CallControl,
  ): Promise<PageSummaries>;
  /** New or changed facts from the pages of one promoted segment, given the facts already stored. */
  extractPersona(
    pages: readonly PageInput[],
    existing: readonly ExistingFact[],
    control?: CallControl,
  ): Promise<ExtractedFact[]>;
  /** A correction such as "actually my sister is a doctor now" against candidate memories. */
  parseFeedback(
    text: string,
    candidates: readonly FeedbackCandidate[],
    control?: CallControl,
  ): Promise<FeedbackParse>;
}

export interface LlmExtractorOptions {
  /** Default 0: extraction should be repeatable, not creative. */
  temperature?: number;
  maxOutputTokens?: number;
  /** Longest wait for one model request, in ms (default 120 s); see `StructuredCallOptions.timeoutMs`. */
  timeoutMs?: number;
  /** Called before every model request; the engine counts LLM calls per ingested turn with it. */
  onCall?: () => void;
}

const MAX_KEYWORDS = 8;

export function llmExtractor(model: LanguageModel, options: LlmExtractorOptions = {}): LlmExtractor {
  const call = <S extends z.ZodType>(schema: S, system: string, prompt: string, control?: CallControl) =>
    structuredCall(model, {
      schema,
      system,
      prompt,
      temperature: options.temperature ?? 0,
      ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: options.maxOutputTokens } : {}),
      ...(options.onCall ? { onCall: options.onCall } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(control?.abortSignal ? { abortSignal: control.abortSignal } : {}),
    });

  return {
    async summarizePages(pages, segments, control) {
      if (pages.length === 0) return { pages: [], assignments: [] };
      const schema = summarySchema(new Set(pages.map((p) => p.id)), new Set(segments.map((s) => s.id)));
      const out = await call(schema, SUMMARIZE_SYSTEM, summarizePrompt(pages, segments), control);
      return {
        pages: firstById(out.pages, (p) => p.id).map((p) => ({ ...p, keywords: cleanKeywords(p.keywords) })),
        assignments: firstById(out.assignments, (a) => a.pageId).map(({ pageId, segmentId, newTopic }) => ({
          pageId,
          segmentId,
          ...(segmentId === null && newTopic
            ? { newTopic: { summary: newTopic.summary, keywords: cleanKeywords(newTopic.keywords) } }
            : {}),
        })),
      };
    },

    async extractPersona(pages, existing, control) {
      if (pages.length === 0) return [];
      const schema = personaSchema(new Set(pages.map((p) => p.id)));
      const out = await call(schema, PERSONA_SYSTEM, personaPrompt(pages, existing), control);
      return cleanFacts(out.facts);
    },

    async parseFeedback(text, candidates, control) {
      if (text.trim() === "") return { facts: [], retract: [], edits: [] };
      const schema = feedbackSchema(new Set(candidates.map((c) => c.id)));
      const out = await call(schema, FEEDBACK_SYSTEM, feedbackPrompt(text, candidates), control);
      return {
        facts: cleanFacts(out.facts),
        retract: out.retract.map((r) => ({ slot: slotName(r.slot), value: r.value.trim() })),
        edits: firstById(out.edits, (e) => e.id),
      };
    },
  };
}

/** The model may repeat an entry; the first one for each id wins so every page appears once. */
function firstById<T>(items: readonly T[], id: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = id(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Slots compare as strings downstream, so "Lives In" and "lives_in" must agree.
 * Dots survive: they separate a relation from its attribute ("sister.job").
 */
function slotName(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}.]+/gu, "_")
    .replace(/_*\._*/g, ".")
    .replace(/^[_.]+|[_.]+$/g, "");
}

function cleanKeywords(raw: readonly string[]): string[] {
  const words = raw.map((k) => k.trim().toLowerCase()).filter((k) => k.length > 0);
  return [...new Set(words)].slice(0, MAX_KEYWORDS);
}

function cleanFacts(facts: readonly ExtractedFact[]): ExtractedFact[] {
  return facts
    .map((f) => ({ ...f, slot: slotName(f.slot), value: f.value.trim(), text: f.text.trim() }))
    .filter((f) => f.slot !== "" && f.value !== "");
}
