import { describe, expect, it } from "vitest";
import { contextLine, isContextLineOf, ownLine, searchText } from "./search-text.js";

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

describe("contextLine", () => {
  it("names the speaker, or else the role, so a shown lead says who spoke", () => {
    expect(contextLine({ text: "I like tea", name: "Ann", role: "user" })).toBe("Ann: I like tea");
    expect(contextLine({ text: "Noted.", name: null, role: "assistant" })).toBe("assistant: Noted.");
  });

  it("recognises a follower's context in the current and the earlier (name-only) format", () => {
    const record = { text: "My dog is Rex.", name: null, role: "user" as const };
    expect(isContextLineOf("user: My dog is Rex.", record)).toBe(true);
    expect(isContextLineOf("My dog is Rex.", record)).toBe(true);
    expect(isContextLineOf("assistant: My dog is Rex.", record)).toBe(false);
    expect(isContextLineOf(null, record)).toBe(false);
  });
});
