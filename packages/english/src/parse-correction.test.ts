import nlp from "compromise";
import { describe, expect, it } from "vitest";
import { parseCorrection } from "./parse-correction.js";

type Case = [text: string, facts: string[], retract: string[]];

const CASES: Case[] = [
  [
    "Actually my sister is a doctor now, not a biologist.",
    ["sister.occupation=doctor"],
    ["sister.occupation=biologist"],
  ],
  ["No, I live in Berlin, not Munich.", ["lives_in=Berlin"], ["lives_in=Munich"]],
  ["That's wrong: I'm vegetarian.", ["diet=vegetarian"], []],
  ["That is wrong, I'm vegetarian.", ["diet=vegetarian"], []],
  ["I don't have a cat anymore.", [], ["pet=cat"]],
  ["Forget that I like jazz.", [], ["likes=jazz"]],
  ["Please forget that I live in Munich.", [], ["lives_in=Munich"]],
  ["I never said I have a dog.", [], ["pet=dog"]],
  ["It is not true that I'm allergic to peanuts.", [], ["allergy=peanut"]],
  ["I'm not a biologist, I'm a doctor.", ["works_as=doctor"], ["works_as=biologist"]],
  ["My name is Maya, not Mia.", ["name=Maya"], ["name=Mia"]],
  ["I work at Google now, not Microsoft.", ["works_at=Google"], ["works_at=Microsoft"]],
  ["I'm allergic to peanuts, not shellfish.", ["allergy=peanut"], ["allergy=shellfish"]],
  ["I prefer tea rather than coffee.", ["likes=tea"], ["likes=coffee"]],
  ["My sister is not a biologist.", [], ["sister.occupation=biologist"]],
  ["I'm not vegetarian.", [], ["diet=vegetarian"]],
  ["I don't live in Munich.", [], ["lives_in=Munich"]],
  ["I moved to Berlin.", ["lives_in=Berlin"], []],
  ["It's Berlin, not Munich.", [], []],
  ["Please forget my address.", [], []],
];

describe("parseCorrection", () => {
  it.each(CASES)("%s", (text, facts, retract) => {
    const correction = parseCorrection(text, "fb1", nlp);
    expect(correction.facts.map((f) => `${f.slot}=${f.value}`)).toEqual(facts);
    expect(correction.retract.map((r) => `${r.slot}=${r.value}`)).toEqual(retract);
  });

  it("returns new facts as current statements carrying the feedback's id", () => {
    const { facts } = parseCorrection("Actually my sister is a doctor now, not a biologist.", "fb9", nlp);
    expect(facts).toEqual([
      {
        subject: "user",
        slot: "sister.occupation",
        value: "doctor",
        text: "The user's sister is a doctor.",
        single: true,
        negated: false,
        confidence: 0.85,
        evidence: "fb9",
      },
    ]);
  });

  it("puts the retracted value and the relative first among the keywords", () => {
    const { keywords } = parseCorrection("Actually my sister is a doctor now, not a biologist.", "fb", nlp);
    expect(keywords.slice(0, 2)).toEqual(["biologist", "sister"]);
    expect(keywords).toContain("doctor");
    expect(keywords).not.toContain("actually");
  });

  it("keeps keywords when no rule understands the correction", () => {
    expect(parseCorrection("It's Berlin, not Munich.", "fb", nlp).keywords).toEqual(["berlin", "munich"]);
    expect(parseCorrection("Please forget my address.", "fb", nlp).keywords).toEqual(["address"]);
  });

  it("drops negation words and contraction fragments from keywords", () => {
    expect(parseCorrection("I don't live in Munich anymore.", "fb", nlp).keywords).toEqual([
      "munich",
      "live",
    ]);
  });

  it("does not retract a value equal to the new one", () => {
    const correction = parseCorrection("I live in Berlin, not Berlin.", "fb", nlp);
    expect(correction.retract).toEqual([]);
  });
});
