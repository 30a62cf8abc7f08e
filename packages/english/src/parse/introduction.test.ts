import { describe, expect, it } from "vitest";
import { introduction } from "./introduction.js";

// Introductions written for these tests; none is taken from the benchmark in bench/data.
describe("introduction", () => {
  it.each([
    // Each item of the list after a name, as the first-person clause it stands for.
    [
      "Nadia here, 31, divorced and living in Cork",
      ["Nadia here", "I am 31 years old", "I am divorced", "I am living in Cork"],
    ],
    [
      "hey, I'm Bruno btw, 58 and originally from Braga",
      ["hey, I'm Bruno btw", "I am 58 years old", "I am originally from Braga"],
    ],
    // The user named after "its" or "this is", in either case.
    ["yo its dimitri, 22 lmao", ["my name is Dimitri", "I am 22 years old"]],
    [
      "This is Wen, forty-four, dad of two",
      ["my name is Wen", "I am forty-four years old", "I am a dad of two"],
    ],
    // A job or a place said bare later in the list.
    [
      "Ines here, 44, midwife, Porto",
      ["Ines here", "I am 44 years old", "I am a midwife", "I live in Porto"],
    ],
    ["Ines here, 44, an electrician", ["Ines here", "I am 44 years old", "I am an electrician"]],
    // A clause after the name that is not a list stays whole.
    ["I'm Jess, I love fish and chips", ["I'm Jess", "I love fish and chips"]],
    // No introduction in a state, a nationality or a sentence without a name.
    ["I'm tired, 29 hours awake", ["I'm tired, 29 hours awake"]],
    ["I'm Brazilian, 40 and from Recife", ["I'm Brazilian, 40 and from Recife"]],
    ["my mum is 62, retired and living in Hull", ["my mum is 62, retired and living in Hull"]],
    // A name corrected: the user's, set against the wrong one in one clause.
    ["hi it's Ana, not Anna", ["my name is Ana, not Anna"]],
  ])("%s", (text, clauses) => {
    expect(introduction(text)).toEqual(clauses);
  });

  it("introduces no one where the name corrected is someone else's", () => {
    expect(introduction("it's Kwame, not Kwesi", "my brother")).toEqual(["it's Kwame, not Kwesi"]);
  });
});
