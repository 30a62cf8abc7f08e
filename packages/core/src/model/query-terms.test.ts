import { describe, expect, it } from "vitest";
import { queryTerms, tokenize } from "./query-terms.js";

describe("tokenize", () => {
  it("lower-cases and splits on anything but letters and numbers", () => {
    expect(tokenize("Hello, World! It's 2024-05-01.")).toEqual([
      "hello",
      "world",
      "it",
      "s",
      "2024",
      "05",
      "01",
    ]);
  });

  it("keeps unicode letters and numbers", () => {
    expect(tokenize("Zoë visited Köln, 東京 and Ελλάδα ٣")).toEqual([
      "zoë",
      "visited",
      "köln",
      "東京",
      "and",
      "ελλάδα",
      "٣",
    ]);
  });

  it("returns an empty list for text without words", () => {
    expect(tokenize("  ?!  -- ")).toEqual([]);
    expect(tokenize("")).toEqual([]);
  });
});

describe("queryTerms", () => {
  it("drops stopwords, including contraction fragments", () => {
    expect(queryTerms("What did I say about the dog's vet?")).toEqual(["say", "dog", "vet"]);
    expect(queryTerms("the and of to")).toEqual([]);
  });

  it("dedupes case-insensitively, keeping first-seen order", () => {
    expect(queryTerms("Paris paris PARIS Berlin paris")).toEqual(["paris", "berlin"]);
  });

  it("keeps numbers and non-Latin words", () => {
    expect(queryTerms("flight 714 to München, 東京")).toEqual(["flight", "714", "münchen", "東京"]);
  });
});
