import { describe, expect, it } from "vitest";
import { extractFacts } from "./extract-facts.js";
import { offlineExtractor } from "./offline-extractor.js";
import { loadParser } from "./parse/parser.js";

const SAID = [
  "I moved to Lisbon last spring and I work as a nurse at the children's hospital.",
  "My cat Biscuit always waits for me at the door when I get home from my shift.",
  "We adopted a beagle named Waffles last weekend, and honestly I love hiking with him.",
  "I'm allergic to peanuts, so I never eat satay, and I've been vegetarian for years.",
  "Big news: I quit nursing last month and started working as a paramedic.",
  "My sister Jo is a midwife in Leeds and my partner Dan teaches maths.",
  "I'm planning a trip to Iceland in March with my best friend from university.",
  "Can you suggest a recipe? I can't stand coriander but I adore anything with lemon.",
];
const messages = Array.from({ length: 320 }, (_, i) => ({
  id: `m${i}`,
  role: i % 5 === 4 ? ("assistant" as const) : ("user" as const),
  text: `${SAID[i % SAID.length]} (${i})`,
  name: null,
}));

describe("offlineExtractor.persona", () => {
  it("reads each message as extractFacts does, in order", async () => {
    const nlp = await loadParser();
    const expected = extractFacts(
      messages.map((m) => ({ id: m.id, role: m.role, text: m.text, name: m.name })),
      nlp,
    );
    expect(expected.length).toBeGreaterThan(300);
    expect(await offlineExtractor.persona(messages)).toEqual(expected);
  });

  it("lets the event loop turn while it reads a long batch, so a tier job does not hold up the process", async () => {
    await loadParser();
    let turns = 0;
    let reading = true;
    const tick = () => {
      if (!reading) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const start = performance.now();
    await offlineExtractor.persona(messages);
    reading = false;
    const took = performance.now() - start;
    // Read in one go, the batch would leave the loop one turn at most (when the parser's import settles).
    expect(took).toBeGreaterThan(60);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(took / 40));
  });
});
