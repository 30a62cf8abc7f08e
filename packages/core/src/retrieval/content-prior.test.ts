import { describe, expect, it } from "vitest";
import { applyContentPrior, contentWeight } from "./content-prior.js";

describe("contentWeight", () => {
  it("is 0 for acknowledgements and grows with content words up to 1", () => {
    expect(contentWeight("Thanks!", 4)).toBe(0);
    expect(contentWeight("Haha yes, totally!", 4)).toBe(0);
    expect(contentWeight("Noted, glad the class went!", 4)).toBe(0.75);
    expect(contentWeight("I adopted a grey cat called Miso last week", 4)).toBe(1);
  });
});

describe("applyContentPrior", () => {
  const texts: Record<string, string> = {
    ack: "Haha yes, thanks so much!",
    answer: "The pottery class is on Thursdays at the community centre.",
    other: "We talked about the weather.",
  };
  // The acknowledgement matched through its neighbouring context and fused just above the answer.
  const hits = [
    { id: "ack", score: 2.4 },
    { id: "answer", score: 2.1 },
    { id: "other", score: 0.3 },
  ];

  it("moves a zero-information hit below the sentence that holds the answer", () => {
    const ranked = applyContentPrior(hits, (h) => texts[h.id], 1);
    expect(ranked.map((h) => h.id)).toEqual(["answer", "ack", "other"]);
    expect(ranked[1]?.score).toBeCloseTo(1.4);
  });

  it("changes nothing when off, and leaves hits without a known text alone", () => {
    expect(applyContentPrior(hits, (h) => texts[h.id], 0).map((h) => h.id)).toEqual([
      "ack",
      "answer",
      "other",
    ]);
    expect(applyContentPrior(hits, () => undefined, 1)).toEqual(hits);
  });
});
