import { describe, expect, it } from "vitest";
import { asRetraction, isHypothetical, isQuestion, splitClauses, splitSentences } from "./fact-clauses.js";
import {
  article,
  cutList,
  cutValue,
  gerund,
  occupation,
  phrases,
  properName,
  singular,
} from "./fact-values.js";

describe("sentences and clauses", () => {
  it("splits sentences at end marks but not after abbreviations or before lower case", () => {
    expect(splitSentences("Dr. Smith says hi. I live in Berlin! Do you? e.g. this one")).toEqual([
      "Dr. Smith says hi.",
      "I live in Berlin!",
      "Do you? e.g. this one",
    ]);
    expect(splitSentences("line one\nline two")).toEqual(["line one", "line two"]);
  });

  it("splits before a lower-case sentence that opens on who it is about, as chat writes them", () => {
    expect(splitSentences("my mum is great. she works as a midwife. i live in Hull")).toEqual([
      "my mum is great.",
      "she works as a midwife.",
      "i live in Hull",
    ]);
    expect(splitSentences("see p. we start there")).toEqual(["see p.", "we start there"]);
    expect(splitSentences("I met Prof. he was kind")).toEqual(["I met Prof. he was kind"]);
  });

  it("splits off a question or a maybe after a comma, so the statement before it stands", () => {
    expect(splitClauses("My brother is a firefighter, so maybe something about that")).toEqual([
      "my brother is a firefighter",
      "maybe something about that",
    ]);
  });

  it("recognises questions and hypotheticals", () => {
    expect(isQuestion("Should I move to Berlin? 🤔")).toBe(true);
    expect(isQuestion("I live in Berlin.")).toBe(false);
    expect(isHypothetical("If I win, I'll buy a boat.", "user")).toBe(true);
    expect(isHypothetical("I'd love to visit Rome.", "user")).toBe(true);
    expect(isHypothetical("I'd recommend the museum.", "assistant")).toBe(false);
    expect(isHypothetical("I could remind you.", "assistant")).toBe(true);
  });

  it("splits clauses at a new subject, expands contractions and drops fillers", () => {
    expect(splitClauses("Wow, Caroline, that looks great")).toEqual(["that looks great"]);
    expect(splitClauses("Oh, I'm a nurse and my sister's in Paris, I think.")).toEqual([
      "I am a nurse",
      "my sister's in Paris",
      "I think.",
    ]);
    expect(splitClauses("Yeah I really love hiking")).toEqual(["I love hiking"]);
  });

  it("rewrites retractions as the statement they retract", () => {
    expect(asRetraction("I no longer live in Munich", false)).toBe("I live in Munich");
    expect(asRetraction("I am not a nurse anymore", false)).toBe("I am a nurse");
    expect(asRetraction("I do not have a cat anymore", false)).toBe("I have a cat");
    expect(asRetraction("my sister is no longer a biologist", false)).toBe("my sister is a biologist");
    expect(asRetraction("I do not like jazz", false)).toBeNull();
    expect(asRetraction("I do not like jazz", true)).toBe("I like jazz");
  });
});

describe("values", () => {
  it("captures whole proper names and nothing after them", () => {
    expect(properName("New York City now")?.value).toBe("New York City");
    expect(properName("Frankfurt am Main with my wife")?.value).toBe("Frankfurt am Main");
    expect(properName("the US since 2010")?.value).toBe("the US");
    expect(properName("Portland, Oregon")?.value).toBe("Portland, Oregon");
    expect(properName("Paris, London and Rome")?.value).toBe("Paris");
    expect(properName("the LGBTQ support group")).toBeNull();
    expect(properName("berlin")).toBeNull();
    expect(properName("June")).toBeNull();
  });

  it("accepts occupations by their head noun and rejects opinions", () => {
    expect(occupation("ER nurse at Mercy")).toEqual({ value: "ER nurse", rest: " at Mercy" });
    expect(occupation("software engineer")?.value).toBe("software engineer");
    expect(occupation("big fan of jazz")).toBeNull();
    expect(occupation("terrible cook")).toBeNull();
    expect(occupation("former teacher")).toBeNull();
  });

  it("parses lists all or nothing", () => {
    expect(phrases("peanuts, shellfish and eggs", 3)).toEqual(["peanuts", "shellfish", "eggs"]);
    expect(phrases("how these poses help body and mind", 4)).toEqual([]);
  });

  it("inflects words", () => {
    expect(["paint", "run", "dance", "tie", "ski", "visit"].map(gerund)).toEqual([
      "painting",
      "running",
      "dancing",
      "tying",
      "skiing",
      "visiting",
    ]);
    expect(["peanuts", "strawberries", "tomatoes", "shellfish", "cats", "asparagus"].map(singular)).toEqual([
      "peanut",
      "strawberry",
      "tomato",
      "shellfish",
      "cat",
      "asparagus",
    ]);
    expect(["engineer", "nurse", "ER nurse", "CEO", "hour", "university"].map(article)).toEqual([
      "an",
      "a",
      "an",
      "a",
      "an",
      "a",
    ]);
  });
});

describe("cutValue", () => {
  it("ends a value before chat's words for now and for how it is meant", () => {
    expect(cutValue("matcha rn")).toBe("matcha");
    expect(cutValue("true crime podcasts tbh")).toBe("true crime podcasts");
    expect(cutValue("sourdough ngl, it's the best")).toBe("sourdough");
    expect(cutValue("the rnli charity shop")).toBe("the rnli charity shop");
  });
});

describe("cutList", () => {
  it("keeps a list that goes on past a comma, and cuts where cutValue does otherwise", () => {
    expect(cutList("nuts, shellfish and eggs so I cook at home")).toBe("nuts, shellfish and eggs");
    expect(cutList("jazz, blues or soul")).toBe("jazz, blues or soul");
    expect(cutList("jazz, it's my life")).toBe("jazz");
    expect(cutList("penicillin, and my son is allergic to nuts")).toBe("penicillin");
  });
});
