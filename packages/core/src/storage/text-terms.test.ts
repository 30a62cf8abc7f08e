import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { porterStem, term } from "./text-terms.js";

// Pairs from Porter's published vocabulary/output lists (tartarus.org/martin/PorterStemmer).
const PAIRS: [string, string][] = [
  ["caresses", "caress"],
  ["ponies", "poni"],
  ["cats", "cat"],
  ["feed", "feed"],
  ["agreed", "agre"],
  ["plastered", "plaster"],
  ["motoring", "motor"],
  ["sing", "sing"],
  ["conflated", "conflat"],
  ["hopping", "hop"],
  ["filing", "file"],
  ["happy", "happi"],
  ["relational", "relat"],
  ["conditional", "condit"],
  ["digitizer", "digit"],
  ["generalization", "gener"],
  ["hopefulness", "hope"],
  ["electrical", "electr"],
  ["adjustment", "adjust"],
  ["adoption", "adopt"],
  ["controlling", "control"],
  ["rolling", "roll"],
  ["kayaking", "kayak"],
  ["running", "run"],
  ["lighthouse", "lighthous"],
  ["yelling", "yell"],
];

describe("porterStem", () => {
  it.each(PAIRS)("%s -> %s", (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });

  it("leaves short, non-ASCII and numeric tokens alone", () => {
    expect(porterStem("is")).toBe("is");
    expect(porterStem("zürich")).toBe("zürich");
    expect(porterStem("2024")).toBe("2024");
  });
});

describe("porterStem and the stems already stored", () => {
  it("gives every token of the project's texts the stem the stemmer written for this project gave it", () => {
    // packages/core/fixtures/stems.json: term(token) for the 4,006 distinct tokens of the README, the docs
    // and the sample conversation, recorded from the hand-written stemmer this one replaced. Stored Qdrant
    // text vectors hash these stems, so any difference would make old documents unfindable by new queries.
    const { pairs } = JSON.parse(
      readFileSync(new URL("../../fixtures/stems.json", import.meta.url), "utf8"),
    ) as { pairs: [string, string][] };
    expect(pairs.length).toBeGreaterThan(4000);
    const differ = pairs.filter(([token, stem]) => term(token) !== stem);
    expect(differ).toEqual([]);
  });
});
