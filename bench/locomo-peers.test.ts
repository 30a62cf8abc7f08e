import type { LocomoConversation, LocomoTurn } from "@engram/cli/locomo";
import { contextEvidenceRecall } from "@engram/cli/locomo";
import { sanitizeMemoryText } from "@engram/core";
import { describe, expect, it } from "vitest";
import { eligibleQuestions, hitsContext } from "./locomo-peers.js";
import { fts5Peer, ftsQuery } from "./peer-fts5.js";
import { lineChart } from "./svg-plot.js";

const turn = (session: number, i: number, speaker: string, text: string, caption?: string): LocomoTurn => ({
  diaId: `D${session}:${i}`,
  speaker,
  text,
  caption: caption ?? null,
  session,
  at: new Date(Date.UTC(2023, 4, session, 12, 0, i)).toISOString(),
});

const conversation: LocomoConversation = {
  sampleId: "conv-t",
  speakerA: "Ann",
  speakerB: "Bob",
  turns: [
    turn(1, 1, "Ann", "I adopted a grey cat called Miso."),
    turn(1, 2, "Bob", "Lovely! Does Miso like the garden?"),
    turn(2, 1, "Ann", "We went hiking near the lake.", "a photo of a lake"),
    turn(2, 2, "Bob", "Sounds great."),
  ],
  qa: [
    { question: "What is the name of Ann's cat?", category: 4, evidence: ["D1:1"] },
    { question: "Where did Ann hike?", category: 2, evidence: ["D2:1; D9:9"] },
    { question: "Is it adversarial?", category: 5, evidence: ["D1:1"] },
    { question: "No evidence", category: 3, evidence: [] },
  ],
};

describe("the LoCoMo peer harness", () => {
  it("asks the eligible questions with their gold turns' texts, captions included", () => {
    const asked = eligibleQuestions([conversation]);
    expect(asked.map((a) => a.gold)).toEqual([["D1:1"], ["D2:1"]]);
    expect(asked[1]?.goldTexts).toEqual(["We went hiking near the lake. [shares a photo of a lake]"]);
  });

  it("renders a peer's hits within the budget, so only what fits counts as evidence", () => {
    const all = hitsContext(conversation, ["D2:1", "D1:1", "D1:2"], 1500);
    expect(all.tokens).toBeLessThanOrEqual(1500);
    for (const t of conversation.turns.slice(0, 3)) {
      expect(
        contextEvidenceRecall(
          [`${t.text}${t.caption ? ` [shares ${t.caption}]` : ""}`],
          all.text,
          sanitizeMemoryText,
        ),
      ).toBe(1);
    }
    // A budget that holds the best hit alone: the second is left out (or cut short), so it does not count.
    const first = hitsContext(conversation, ["D2:1"], 1500);
    const tight = hitsContext(conversation, ["D2:1", "D1:1"], first.tokens);
    expect(tight.tokens).toBeLessThanOrEqual(first.tokens);
    expect(contextEvidenceRecall(["I adopted a grey cat called Miso."], tight.text)).toBe(0);
    expect(contextEvidenceRecall(["We went hiking near the lake."], tight.text)).toBe(1);
    expect(hitsContext(conversation, ["D7:7"], 1500).text).toBe("");
  });

  it("quotes the question's words for FTS5 and ranks the turn that holds them first", async () => {
    expect(ftsQuery(`What's "Miso"? OR NEAR(x)`)).toBe(`"what" OR "s" OR "miso" OR "or" OR "near" OR "x"`);
    const fts = fts5Peer([conversation]);
    expect((await fts.search(conversation, "What is the cat called?", 2))[0]).toBe("D1:1");
    expect(await fts.search(conversation, "?!", 5)).toEqual([]);
    await fts.close();
  });

  it("draws recall@k curves on linear axes", () => {
    const svg = lineChart({
      title: "t",
      xLabel: "k",
      yLabel: "recall",
      scale: "linear",
      yRange: [0, 1],
      series: [
        {
          name: "a",
          points: [
            [1, 0.2],
            [10, 0.7],
            [20, 0.8],
          ],
        },
      ],
    });
    expect(svg).toContain(">0.8<");
    expect(svg).toContain(">20<");
    expect(svg.match(/<circle/g)).toHaveLength(3);
  });
});
