import { describe, expect, it } from "vitest";
import {
  contextEvidenceRecall,
  goldTurnIds,
  isEligible,
  meanAccumulator,
  recallAccumulator,
  recallAtK,
} from "./evidence-recall.js";

const turns = new Set(["D1:1", "D1:2", "D1:3", "D2:1", "D2:5", "D30:5"]);

describe("goldTurnIds", () => {
  it("normalises every id in the evidence strings and keeps only turns of the conversation", () => {
    expect(goldTurnIds(["D1:3"], turns)).toEqual(["D1:3"]);
    expect(goldTurnIds(["D1:1; D2:1", "D2:5 D1:1"], turns)).toEqual(["D1:1", "D2:1", "D2:5"]);
    expect(goldTurnIds(["D:2:5", "D30:05", "D", "D9:9"], turns)).toEqual(["D2:5", "D30:5"]);
  });

  it("leaves adversarial questions and questions without gold turns out", () => {
    expect(isEligible(4, ["D1:1"])).toBe(true);
    expect(isEligible(5, ["D1:1"])).toBe(false);
    expect(isEligible(3, [])).toBe(false);
  });
});

describe("recallAtK", () => {
  it("counts the share of gold turns among the first k retrieved", () => {
    expect(recallAtK(["D1:1", "D2:1"], ["D1:3", "D1:1", "D2:5", "D2:1"], 2)).toBe(0.5);
    expect(recallAtK(["D1:1", "D2:1"], ["D1:3", "D1:1", "D2:5", "D2:1"], 4)).toBe(1);
    expect(recallAtK(["D1:1"], [], 10)).toBe(0);
  });

  it("counts a turn once however often it is retrieved (multi-turn memories map to several ids)", () => {
    // A memory covering D1:1 and D1:2 contributes both ids; a second memory repeats D1:2.
    expect(recallAtK(["D1:2", "D1:3"], ["D1:1", "D1:2", "D1:2", "D1:3"], 3)).toBe(0.5);
    expect(recallAtK(["D1:2", "D1:3"], ["D1:1", "D1:2", "D1:2", "D1:3"], 4)).toBe(1);
  });

  it("averages over questions overall, not over category means", () => {
    const acc = recallAccumulator([1, 2]);
    acc.add(4, ["a"], ["a"]);
    acc.add(4, ["b"], ["x", "b"]);
    acc.add(1, ["c", "d"], ["c", "x"]);
    const s = acc.summary();
    expect(s.questions).toBe(3);
    expect(s.recall).toEqual({ "1": 0.5, "2": 0.8333 });
    expect(s.by_category["4"]).toEqual({ n: 2, recall: { "1": 0.5, "2": 1 } });
    expect(s.by_category["1"]).toEqual({ n: 1, recall: { "1": 0.5, "2": 0.5 } });
  });
});

describe("contextEvidenceRecall", () => {
  const context = [
    "<memory>",
    "## Relevant past conversation",
    "[2023-05-08]",
    "- Ann: I adopted a grey cat called Miso.",
    "- Bob: Lovely! Are you still teaching piano…",
    "</memory>",
  ].join("\n");

  it("counts a gold turn when its whole text is in the rendered context", () => {
    expect(contextEvidenceRecall(["I adopted a grey cat called Miso."], context)).toBe(1);
    expect(contextEvidenceRecall(["I adopted a grey cat called Miso.", "Piano on Tuesdays."], context)).toBe(
      0.5,
    );
  });

  it("does not count a truncated turn, and renders texts as the context does before matching", () => {
    expect(contextEvidenceRecall(["Lovely! Are you still teaching piano?"], context)).toBe(0);
    const render = (text: string) => text.replace(/\s+/g, " ").trim();
    expect(contextEvidenceRecall(["I adopted a grey\ncat called Miso."], context, render)).toBe(1);
    expect(contextEvidenceRecall([], context)).toBe(0);
  });

  it("is averaged like recall@k, per category and overall", () => {
    const acc = meanAccumulator();
    acc.add(2, 1);
    acc.add(2, 0);
    acc.add(4, 0.5);
    expect(acc.summary()).toEqual({ all: 0.5, by_category: { "2": 0.5, "4": 0.5 } });
  });
});
