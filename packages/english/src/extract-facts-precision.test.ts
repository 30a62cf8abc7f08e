import { describe, expect, it } from "vitest";
import { type ExtractInput, extractFacts } from "./extract-facts.js";

/** Facts of one message as "+slot=value" (or "-slot=value" for a retraction). */
function facts(text: string, role: ExtractInput["role"] = "user"): string[] {
  return extractFacts([{ id: "m1", role, text }]).map((f) => `${f.negated ? "-" : "+"}${f.slot}=${f.value}`);
}

const ASSISTANT: Array<[text: string, expected: string[]]> = [
  [
    "I recommend trying the pad thai at Thai Garden.",
    ["+assistant.recommended=trying the pad thai at Thai Garden"],
  ],
  [
    "I'd recommend the Blue Bottle cafe, which is close to your office.",
    ["+assistant.recommended=the Blue Bottle cafe"],
  ],
  ["I suggest you take a break.", ["+assistant.recommended=take a break"]],
  ["You should check out the Louvre.", ["+assistant.recommended=check out the Louvre"]],
  [
    "I'll remind you to call your mom on Sunday.",
    ["+assistant.promised=remind the user to call their mom on Sunday"],
  ],
  [
    "I've added the dentist appointment to your calendar.",
    ["+assistant.did=added the dentist appointment to their calendar"],
  ],
];

/** Sentences that must yield nothing: a wrong fact is worse than a missed one. */
const NOTHING: string[] = [
  "Do you think I should move to Berlin?",
  "Where do I live again?",
  "If I moved to Paris, I would be happy.",
  "When I retire, I will move to Spain.",
  "Maybe I'll move to Berlin.",
  "I'd love to visit Rome.",
  "I used to live in Ohio.",
  "I should start running.",
  "My friend lives in Paris.",
  "My friend's dog is cute.",
  "She said she lives in Paris.",
  '"I live in Paris," she said.',
  "My mom thinks I'm a nurse.",
  "I love how you explain things.",
  "I love it!",
  "I love you!",
  "I like that idea.",
  "I love my job.",
  "I love the color and texture.",
  "I love how these poses help body and mind.",
  "I'm Canadian.",
  "I'm Sorry.",
  "I'm a big fan.",
  "I'm a terrible cook.",
  "I'm a proud dog owner.",
  "I'm 34 weeks pregnant.",
  "I'm 100% sure.",
  "I live in a small apartment.",
  "I live in fear of spiders.",
  "i live in berlin",
  "I work for a living.",
  "I work at home.",
  "I've lived in Paris, London and Rome.",
  "I'm in Berlin this week.",
  "I miss my dog.",
  "Here's a photo of my horse painting.",
  "I play with my kids every day.",
  "I'm learning a lot from you.",
  "I'm learning to accept myself.",
  "I started saving for a house.",
  "I have seasonal allergies.",
  "I'm not allergic to anything.",
  "I study hard.",
  "I will try.",
  "I'm going to be honest with you.",
  "I'm going to bed.",
  "I am visiting my parents.",
  "I'm going to make it for my family this weekend.",
  "My favorite thing is the beach.",
  "Yeah, I'm really lucky to have them.",
  "I'm engaged in a long project.",
  "I have been a nurse.",
  "My cat allergy is acting up.",
  "I'm Maya's mom.",
  "I hate to say it, but no.",
  "I'm a huge fan of yours.",
];

describe("extractFacts precision and roles", () => {
  it.each(ASSISTANT)("assistant: %s", (text, expected) => {
    expect(facts(text, "assistant")).toEqual(expected);
  });

  it.each(NOTHING)("finds nothing in %j", (text) => {
    expect(facts(text)).toEqual([]);
  });

  it("does not apply user rules to assistant turns, nor assistant rules to user turns", () => {
    expect(facts("I live in Berlin and I love hiking.", "assistant")).toEqual([]);
    expect(facts("I recommend the museum.", "user")).toEqual([]);
    expect(facts("If you want, I can remind you.", "assistant")).toEqual([]);
    expect(facts("Would you like me to remind you?", "assistant")).toEqual([]);
  });

  it("skips system and tool messages", () => {
    expect(facts("I live in Berlin.", "system")).toEqual([]);
    expect(facts("I live in Berlin.", "tool")).toEqual([]);
  });
});
