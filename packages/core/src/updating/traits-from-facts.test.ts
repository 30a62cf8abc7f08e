import { describe, expect, it } from "vitest";
import { extractFacts } from "./extract-facts.js";
import { traitsFromFacts } from "./traits-from-facts.js";

/** Traits from a conversation of user messages, ids m1, m2, ... */
function traits(...texts: string[]) {
  const facts = extractFacts(texts.map((text, i) => ({ id: `m${i + 1}`, role: "user" as const, text })));
  return traitsFromFacts(facts);
}

const pairs = (list: ReturnType<typeof traits>) => list.map((t) => `${t.key}=${t.value}`);

describe("traitsFromFacts", () => {
  it("turns identity and preference facts into traits with evidence", () => {
    expect(traits("I'm vegetarian and I love hiking.", "I live in Berlin.")).toEqual([
      { key: "diet", value: "vegetarian", confidence: 0.85, evidence: ["m1"] },
      { key: "likes", value: "hiking", confidence: 0.8, evidence: ["m1"] },
      { key: "lives_in", value: "Berlin", confidence: 0.9, evidence: ["m2"] },
    ]);
  });

  it("keeps only the latest value of a single-valued slot", () => {
    expect(pairs(traits("I live in Munich.", "I moved to Berlin."))).toEqual(["lives_in=Berlin"]);
    expect(pairs(traits("I'm vegetarian.", "I went vegan."))).toEqual(["diet=vegan"]);
  });

  it("keeps every value of a multi-valued slot", () => {
    expect(pairs(traits("I'm allergic to peanuts.", "I'm allergic to shellfish."))).toEqual([
      "allergy=peanut",
      "allergy=shellfish",
    ]);
  });

  it("removes a retracted value", () => {
    expect(pairs(traits("I love jazz and I love hiking.", "I don't like jazz anymore."))).toEqual([
      "likes=hiking",
    ]);
    expect(pairs(traits("I'm vegetarian.", "I'm no longer a vegetarian."))).toEqual([]);
  });

  it("lets a dislike replace a like of the same thing, and the other way round", () => {
    expect(pairs(traits("I love olives.", "I hate olives."))).toEqual(["dislikes=olives"]);
    expect(pairs(traits("I hate olives.", "I love olives."))).toEqual(["likes=olives"]);
  });

  it("raises confidence with repeated evidence (noisy-or, capped below 1)", () => {
    const [trait] = traits("I love jazz.", "I love jazz.", "I love jazz.", "I love jazz.");
    expect(trait).toEqual({
      key: "likes",
      value: "jazz",
      confidence: 0.99,
      evidence: ["m1", "m2", "m3", "m4"],
    });
    const [twice] = traits("I like jazz.", "I like jazz.");
    expect(twice?.confidence).toBe(0.91);
  });

  it("leaves out plans, relatives' details and assistant facts", () => {
    const facts = extractFacts([
      { id: "u", role: "user", text: "I'm planning to visit Japan next month. My sister is a biologist." },
      { id: "a", role: "assistant", text: "I recommend the museum." },
    ]);
    expect(facts).toHaveLength(3);
    expect(traitsFromFacts(facts)).toEqual([]);
  });

  it("keeps favourites as their own keys", () => {
    expect(pairs(traits("My favourite food is sushi.", "My favourite food is ramen."))).toEqual([
      "favourite.food=ramen",
    ]);
  });
});
