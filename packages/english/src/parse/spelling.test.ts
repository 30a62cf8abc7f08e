import { beforeAll, describe, expect, it } from "vitest";
import { loadParser, type Nlp } from "./parser.js";
import { correctTypos, oneEditApart } from "./spelling.js";

let nlp: Nlp;
beforeAll(async () => {
  nlp = await loadParser();
});

describe("oneEditApart", () => {
  it.each([
    ["acountant", "accountant", true],
    ["guiter", "guitar", true],
    ["vegitarian", "vegetarian", true],
    ["teh", "the", true],
    ["nurse", "nurse", false],
    ["nurse", "nurses!", false],
    ["cat", "dog", false],
  ])("%s / %s -> %s", (a, b, want) => {
    expect(oneEditApart(a, b)).toBe(want);
  });
});

describe("correctTypos", () => {
  it("mends a typo in an occupation, a pastime, a diet or a place", () => {
    expect(correctTypos(nlp, "my job is acountant at deloitte")).toBe("my job is accountant at deloitte");
    expect(correctTypos(nlp, "i play guiter in a band")).toBe("i play guitar in a band");
    expect(correctTypos(nlp, "i'm a vegitarian")).toBe("i'm a vegetarian");
    expect(correctTypos(nlp, "i live in manchster now")).toBe("i live in manchester now");
  });

  it("mends a typo in an adverb a reader reads past", () => {
    expect(correctTypos(nlp, "i am currenty in Leeds")).toBe("i am currently in Leeds");
    expect(correctTypos(nlp, "i definitly live in Leeds")).toBe("i definitely live in Leeds");
  });

  it("leaves a word the readers key on as written", () => {
    expect(correctTypos(nlp, "i am a widower now")).toBe("i am a widower now");
    expect(correctTypos(nlp, "a divorcee of ten years")).toBe("a divorcee of ten years");
  });

  it("puts back the g chat drops", () => {
    expect(correctTypos(nlp, "been livin in leeds, workin nights")).toBe(
      "been living in leeds, working nights",
    );
  });

  it("writes chat shorthand out", () => {
    expect(correctTypos(nlp, "first yr nursing at Cardiff Uni n placements start nxt wk")).toBe(
      "first year nursing at Cardiff Uni and placements start next week",
    );
    // The g dropped from a word of four letters, which the rule for longer words leaves alone.
    expect(correctTypos(nlp, "doin a masters, goin to Bangor")).toBe("doing a masters, going to Bangor");
  });

  it("leaves names, known words, short words and inflections as written", () => {
    const kept = [
      "Manchster is my cat",
      "my sisters are both nurses",
      "the cafe was nice",
      "I really loved it",
    ];
    for (const text of kept) expect(correctTypos(nlp, text)).toBe(text);
  });
});
