import { describe, expect, it } from "vitest";
import { ownLine, searchText } from "./search-text.js";

describe("ownLine", () => {
  it("prefixes the speaker name when known", () => {
    expect(ownLine({ text: "I like tea", name: "Ann" })).toBe("Ann: I like tea");
    expect(ownLine({ text: "I like tea", name: null })).toBe("I like tea");
  });
});

describe("searchText", () => {
  it("puts the context line before the memory's own line", () => {
    expect(searchText({ text: "Me too", name: "Bob", context: "Ann: I like tea" })).toBe(
      "Ann: I like tea\nBob: Me too",
    );
  });

  it("is the own line alone without context", () => {
    expect(searchText({ text: "Me too", name: null, context: null })).toBe("Me too");
    expect(searchText({ text: "Me too", name: "Bob", context: "" })).toBe("Bob: Me too");
  });
});
