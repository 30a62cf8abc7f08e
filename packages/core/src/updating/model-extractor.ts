import {
  FEEDBACK_EVIDENCE,
  type LanguageModel,
  type LlmExtractorOptions,
  llmExtractor,
  modelName,
} from "../ai/index.js";
import { queryTerms, readFact } from "../model/index.js";
import type { Extractor } from "../runtime/index.js";
import { groupPages, pageText } from "./pages.js";
import { segmentState } from "./segment-record.js";

/**
 * Tier judgement from any AI SDK language model, batched: one call per eviction batch (summaries,
 * keywords, segment assignment), one per promotion (persona), one per feedback.
 */
export function modelExtractor(model: LanguageModel, options: LlmExtractorOptions = {}): Extractor {
  const llm = llmExtractor(model, options);
  return {
    name: `model:${modelName(model)}`,
    async assign(pages, segments) {
      const out = await llm.summarizePages(
        pages.map((p) => ({ id: p.id, text: pageText(p), at: p.messages[0]?.validFrom ?? null })),
        segments.map((s) => ({ id: s.id, summary: s.text, keywords: segmentState(s).keywords })),
      );
      return out.assignments.map((a) => {
        const page = out.pages.find((p) => p.id === a.pageId);
        return {
          pageId: a.pageId,
          summary: a.newTopic?.summary && !page ? a.newTopic.summary : (page?.summary ?? ""),
          keywords: page?.keywords ?? a.newTopic?.keywords ?? [],
          segmentId: a.segmentId,
          ...(a.newTopic ? { topic: a.newTopic.summary } : {}),
        };
      });
    },
    async persona(messages, existing) {
      const pages = groupPages(messages).map((p) => ({
        id: p.id,
        text: pageText(p),
        at: p.messages[0]?.validFrom ?? null,
      }));
      return llm.extractPersona(
        pages,
        existing.map((f) => ({ slot: readFact(f).slot, value: readFact(f).value, text: f.text })),
      );
    },
    async feedback(text, evidenceId, candidates) {
      const out = await llm.parseFeedback(
        text,
        candidates.map((c) => ({ id: c.id, text: c.text })),
      );
      return {
        facts: out.facts.map((f) => ({
          ...f,
          evidence: f.evidence === FEEDBACK_EVIDENCE ? evidenceId : f.evidence,
        })),
        retract: out.retract,
        keywords: queryTerms(text),
        edits: out.edits,
      };
    },
  };
}
