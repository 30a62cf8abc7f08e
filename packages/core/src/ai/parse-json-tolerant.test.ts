import { describe, expect, it } from "vitest";
import { EngramError, ModelError } from "../errors/index.js";
import { parseJsonTolerant } from "./parse-json-tolerant.js";

const expected = { name: "Ada", tags: ["a", "b"] };

describe("parseJsonTolerant", () => {
  it("parses plain JSON, objects and arrays", () => {
    expect(parseJsonTolerant('{"name":"Ada","tags":["a","b"]}')).toEqual(expected);
    expect(parseJsonTolerant(' [1, 2, {"x": null}] ')).toEqual([1, 2, { x: null }]);
    expect(parseJsonTolerant("42")).toBe(42);
  });

  it("takes the content of a ```json fence", () => {
    const text = 'Here you go:\n```json\n{"name": "Ada", "tags": ["a", "b"]}\n```\nAnything else?';
    expect(parseJsonTolerant(text)).toEqual(expected);
    expect(parseJsonTolerant('```\n{"name":"Ada","tags":["a","b"]}```')).toEqual(expected);
  });

  it("skips think blocks, leading prose with stray brackets, and trailing prose", () => {
    const text =
      '<think>The user wants {"name": "Bob"}? No, [wait] it is Ada.</think>\n' +
      'Sure [as requested] {I think}: {"name": "Ada", "tags": ["a", "b"]} Hope this helps! {"name":"X"}';
    expect(parseJsonTolerant(text)).toEqual(expected);
  });

  it("drops everything up to a closing think tag whose opening tag was in the template", () => {
    expect(parseJsonTolerant('reasoning {"name":"Bob"} ...</think>{"name":"Ada","tags":["a","b"]}')).toEqual(
      expected,
    );
  });

  it("removes trailing commas in objects and arrays", () => {
    expect(parseJsonTolerant('{"name": "Ada", "tags": ["a", "b",\n ],\n}')).toEqual(expected);
  });

  it("keeps commas and brackets that are inside strings", () => {
    expect(parseJsonTolerant('{"text": "a, ] } b,", "n": [1,]}')).toEqual({ text: "a, ] } b,", n: [1] });
  });

  it("repairs typographic and single quotes around keys and values", () => {
    expect(
      parseJsonTolerant("{\u201cname\u201d: \u201cAda\u201d, \u201ctags\u201d: [\u2018a\u2019, 'b']}"),
    ).toEqual(expected);
    // An apostrophe inside a loosely quoted value does not end it.
    expect(parseJsonTolerant("{'note': 'Ada's cat'}")).toEqual({ note: "Ada's cat" });
  });

  it("leaves typographic quotes inside valid strings alone", () => {
    const value = { quote: "she said \u201chi\u201d, then left" };
    expect(parseJsonTolerant(JSON.stringify(value))).toEqual(value);
  });

  it("escapes raw newlines and tabs inside strings", () => {
    expect(parseJsonTolerant('{"text": "line one\nline\ttwo"}')).toEqual({ text: "line one\nline\ttwo" });
  });

  it("throws ModelError with a short excerpt when there is no JSON", () => {
    const garbage = `I cannot help with that. ${"blah ".repeat(100)}`;
    let error: unknown;
    try {
      parseJsonTolerant(garbage);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelError);
    expect(EngramError.isInstance(error) && error.code).toBe("MODEL");
    const excerpt = (error as ModelError).details.excerpt as string;
    expect(excerpt.startsWith("I cannot help with that.")).toBe(true);
    expect(excerpt.length).toBeLessThanOrEqual(123);
  });

  it("throws on truncated or mismatched JSON instead of guessing the rest", () => {
    expect(() => parseJsonTolerant('{"name": "Ada", "tags": ["a", ')).toThrow(ModelError);
    expect(() => parseJsonTolerant('{"tags": ["a"}')).toThrow(ModelError);
  });
});
