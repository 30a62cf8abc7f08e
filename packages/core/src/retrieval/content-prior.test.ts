import { describe, expect, it } from "vitest";
import { CacheSet } from "../model/index.js";
import { applyContentPrior, contentWeight, endsWithQuestion } from "./content-prior.js";

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

  it("reads each text once with the engine's caches, and ranks as without them", () => {
    const caches = new CacheSet();
    const text = (h: { id: string }) => texts[h.id];
    const plain = applyContentPrior(hits, text, 1, 0.5);
    const first = applyContentPrior(hits, text, 1, 0.5, caches);
    expect(first).toEqual(plain);
    expect(caches.size).toBe(3);
    // The second search finds each text's weight kept: same scores, no new entries.
    expect(applyContentPrior(hits, text, 1, 0.5, caches)).toEqual(plain);
    expect(caches.size).toBe(3);
    caches.clear();
    expect(caches.size).toBe(0);
  });

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

describe("the question prior", () => {
  it("knows a turn that ends by asking, with a shared image's caption after the question", () => {
    expect(endsWithQuestion("Wow! What got you into running?")).toBe(true);
    expect(endsWithQuestion('Did you read "Dune?"')).toBe(true);
    expect(endsWithQuestion("Any plans? [shares a photo of a beach]")).toBe(true);
    expect(endsWithQuestion("What a day? No, what a week. I ran ten kilometres.")).toBe(false);
  });

  it("ranks the reply that answers above the question that matched", () => {
    const texts: Record<string, string> = {
      question: "What got you into running marathons?",
      answer: "Running marathons helps me de-stress after work.",
    };
    const hits = [
      { id: "question", score: 3 },
      { id: "answer", score: 2.5 },
    ];
    expect(applyContentPrior(hits, (h) => texts[h.id], 0, 2).map((h) => h.id)).toEqual([
      "answer",
      "question",
    ]);
    expect(applyContentPrior(hits, (h) => texts[h.id], 0, 0).map((h) => h.id)).toEqual([
      "question",
      "answer",
    ]);
  });
});
