import { describe, expect, it } from "vitest";
import { porterStem } from "./porter-stemmer.js";

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
