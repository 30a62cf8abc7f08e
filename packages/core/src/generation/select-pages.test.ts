import { describe, expect, it } from "vitest";
import { assembleContext, type ContextPage } from "./assemble-context.js";
import { defaultTokenizer } from "./tokenizer.js";

const NOW = "2026-02-05T14:03:00Z";
const page = (id: string, text: string, at: string | null, score: number, before?: string): ContextPage => ({
  id,
  text,
  role: "user",
  name: "Maya",
  at,
  score,
  sessionId: "s1",
  ...(before ? { before } : {}),
});
const assemble = (pages: ContextPage[], budgetTokens = 1500) =>
  assembleContext({ now: NOW, profile: [], facts: [], pages, recent: [], budgetTokens });
const section = (text: string) =>
  text.split("## Relevant past conversation\n")[1]?.split("\n</memory>")[0]?.split("\n") ?? [];

describe("retrieved turns in the context", () => {
  it("shows a day's date once, and the turn a retrieved turn answers before it", () => {
    const day = "2023-05-08T13:56:00Z";
    const result = assemble([
      page("a", "I went to the support group.", day, 3, "Mel: What did you do yesterday?"),
      page("b", "It was really powerful.", day, 2),
    ]);
    expect(section(result.text)).toEqual([
      "[2023-05-08]",
      "- Mel: What did you do yesterday?",
      "- Maya: I went to the support group.",
      "- Maya: It was really powerful.",
    ]);
    expect(result.tokens).toBe(defaultTokenizer.count(result.text));
  });

  it("shows a line once when it is both a lead and a retrieved turn", () => {
    const day = "2023-05-08T13:56:00Z";
    const result = assemble([
      page("a", "Yes, every Tuesday.", day, 3, "Maya: Do you still teach piano?"),
      page("b", "Do you still teach piano?", day, 2),
    ]);
    expect(section(result.text).filter((l) => l.includes("teach piano"))).toHaveLength(1);
    expect(result.dropped.pages).toBe(0);
  });

  it("never stops at a turn that does not fit while later ones still do", () => {
    const day = "2023-05-08T13:56:00Z";
    const long = "word ".repeat(400).trim();
    const short = (i: number) => page(`s${i}`, `Short turn number ${i}.`, day, 10 - i);
    const frame = assemble([short(0)], 2000).tokens;
    // Room for the short turns but not for the long one, which ranks between them.
    const result = assemble([short(0), page("long", long, day, 9.5), short(1), short(2)], frame + 40);
    expect(result.pages.map((p) => p.id)).toEqual(expect.arrayContaining(["s0", "s1", "s2"]));
    expect(result.tokens).toBeLessThanOrEqual(frame + 40);
  });

  it("drops the lead rather than the turn when both do not fit", () => {
    const day = "2023-05-08T13:56:00Z";
    const lead = `Mel: ${"Tell me everything about it, ".repeat(20)}?`;
    const only = assemble([page("a", "I went to the support group.", day, 3)], 2000).tokens;
    const result = assemble([page("a", "I went to the support group.", day, 3, lead)], only);
    expect(result.pages.map((p) => p.id)).toEqual(["a"]);
    expect(result.text).not.toContain("Tell me everything");
  });

  it("spends the budget in rank order: the best turns are the ones kept", () => {
    const pages = Array.from({ length: 60 }, (_, i) =>
      page(`p${i}`, `Memory ${i} about something said.`, `2023-0${1 + (i % 9)}-01T10:00:00Z`, 60 - i),
    );
    const result = assemble(pages, 400);
    const kept = new Set(result.pages.map((p) => p.id));
    const lastKept = Math.max(...[...kept].map((id) => Number(id.slice(1))));
    for (let i = 0; i < lastKept; i++) expect(kept.has(`p${i}`)).toBe(true);
    expect(result.tokens).toBeGreaterThan(400 - 20); // the budget is used, not left a third empty
  });
});
