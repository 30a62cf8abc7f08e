import { type LongMemEvalItem, runLongMemEval, selectQuestions } from "@engram/cli/longmemeval";
import { describe, expect, it } from "vitest";
import { bm25Index, peerSystem } from "./lme-bench.js";

const filler = (topic: string) =>
  `${`Here is a long answer about ${topic}. `.repeat(40)}Ask me anything else about ${topic}.`;

const item: LongMemEvalItem = {
  question_id: "q1",
  question_type: "single-session-user",
  question: "What breed is my dog?",
  answer: "a beagle",
  question_date: "2023/06/01 (Thu) 10:00",
  haystack_dates: ["2023/05/01 (Mon) 09:00", "2023/05/20 (Sat) 18:30"],
  haystack_session_ids: ["s1", "s2"],
  haystack_sessions: [
    [
      { role: "user", content: "Can you suggest a pasta recipe?" },
      { role: "assistant", content: filler("pasta") },
    ],
    [
      { role: "user", content: "My dog is a beagle and he loves long walks.", has_answer: true },
      { role: "assistant", content: filler("walks") },
      { role: "user", content: "" },
    ],
  ],
  answer_session_ids: ["s2"],
};

describe("LongMemEval peers", () => {
  it("BM25's top turns, pasted into the context renderer, are measured by the eval's own figures", async () => {
    const system = peerSystem(bm25Index);
    try {
      const doc = (await runLongMemEval(selectQuestions([item], {}), system, {
        budgetTokens: 400,
      })) as Record<string, number>;
      expect(doc.questions).toBe(1);
      expect(doc.session_recall_all_5).toBe(1);
      expect(doc.turn_recall_10).toBe(1);
      expect(doc.context_evidence_recall).toBe(1);
      expect(doc.answer_in_context).toBe(1);
      expect(doc.context_tokens).toBeLessThanOrEqual(400);
      // The blank turn is not stored.
      expect(doc.ingest_turns).toBe(4);
    } finally {
      await system.close();
    }
  });

  it("a budget too small for the evidence turn leaves it out of the context, and the figure says so", async () => {
    const system = peerSystem(bm25Index);
    try {
      const doc = (await runLongMemEval(selectQuestions([item], {}), system, { budgetTokens: 60 })) as Record<
        string,
        number
      >;
      expect(doc.context_evidence_recall).toBe(0);
    } finally {
      await system.close();
    }
  });
});
