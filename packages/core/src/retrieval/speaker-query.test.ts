import { describe, expect, it, vi } from "vitest";
import type { MemoryRecord } from "../model/index.js";
import { type RetrievalOptions, resolveRetrieval } from "./retrieval-config.js";
import { firstPerson, speakerQuery, withoutName } from "./speaker-query.js";

describe("firstPerson", () => {
  it("puts the question in the words of the person it names", () => {
    expect(firstPerson("What activities has Melanie done with her family?", "Melanie")).toBe(
      "What activities has I done with my family?",
    );
    expect(firstPerson("What is Melanie's reason for running?", "Melanie")).toBe(
      "What is my reason for running?",
    );
    expect(firstPerson("Did melanie’s son tell him about himself?", "Melanie")).toBe(
      "Did my son tell me about myself?",
    );
  });

  it("matches a name of several words as a whole, and not inside another word", () => {
    expect(firstPerson("Where does Mary Ann live?", "Mary Ann")).toBe("Where does I live?");
    expect(firstPerson("Where does Mary live?", "Mary Ann")).toBe("Where does Mary live?");
    expect(firstPerson("Where do the Jonsons live?", "Jon")).toBe("Where do the Jonsons live?");
  });
});

describe("withoutName", () => {
  it("leaves the name and its possessive out", () => {
    expect(withoutName("What is Melanie's reason for running?", "Melanie")).toBe(
      "What is reason for running?",
    );
    expect(withoutName("What did Jon build?", "jon")).toBe("What did build?");
  });
});

const turn = (name: string | null): MemoryRecord => ({ name }) as MemoryRecord;

function ports(names: (string | null)[], options: Omit<RetrievalOptions, "fusion"> = {}) {
  const scan = vi.fn(async () => names.map(turn));
  return { scan, ports: { retrieval: resolveRetrieval(options), storage: { scan } } };
}
const scope = { userId: "u" };

describe("speakerQuery", () => {
  it("asks the newest turns who speaks, and rewrites a query that names one of them", async () => {
    const { scan, ports: p } = ports(["Caroline", "Melanie", null]);
    expect(await speakerQuery(p, scope, "What does Melanie paint?")).toEqual({
      dense: "What does I paint?",
      text: "What does paint?",
      speaker: "Melanie",
    });
    expect(scan).toHaveBeenCalledWith(scope, {
      filter: { kinds: ["message"], current: true },
      order: "desc",
      limit: 50,
    });
  });

  it("leaves a query as it is when it names both parties, nobody who speaks, or only the name", async () => {
    const { ports: p } = ports(["Caroline", "Melanie"]);
    for (const query of [
      "What do Caroline and Melanie both paint?",
      "Where did Oliver hide his bone?",
      "Melanie?",
    ])
      expect(await speakerQuery(p, scope, query)).toEqual({ dense: query, text: query, speaker: null });
  });

  it("reads nothing when the stage or the speaker prior is off, or no word after the first is capitalised", async () => {
    for (const [options, query] of [
      [{ speakerQuery: false }, "What does Melanie paint?"],
      [{ speakerPrior: 0 }, "What does Melanie paint?"],
      [{}, "what does melanie paint?"],
      [{}, "Melanie?"],
      [{}, "What should I cook? I'm hungry"],
    ] as const) {
      const { scan, ports: p } = ports(["Melanie"], options);
      expect(await speakerQuery(p, scope, query)).toEqual({ dense: query, text: query, speaker: null });
      expect(scan).not.toHaveBeenCalled();
    }
  });
});
