import { describe, expect, it } from "vitest";
import { introduction } from "./introduction.js";

// Introductions written for these tests; none is taken from the benchmark in bench/data.
describe("introduction", () => {
  it("writes each item of the list after a name as the first-person clause it stands for", () => {
    expect(introduction("Nadia here, 31, divorced and living in Cork")).toEqual([
      "Nadia here",
      "I am 31 years old",
      "I am divorced",
      "I am living in Cork",
    ]);
    expect(introduction("hey, I'm Bruno btw, 58 and originally from Braga")).toEqual([
      "hey, I'm Bruno btw",
      "I am 58 years old",
      "I am originally from Braga",
    ]);
  });

  it("names the user after its or this is, in either case", () => {
    expect(introduction("yo its dimitri, 22 lmao")).toEqual(["my name is Dimitri", "I am 22 years old"]);
    expect(introduction("This is Wen, forty-four, dad of two")).toEqual([
      "my name is Wen",
      "I am forty-four years old",
      "I am a dad of two",
    ]);
  });

  it("reads a job or a place said bare later in the list", () => {
    expect(introduction("Ines here, 44, midwife, Porto")).toEqual([
      "Ines here",
      "I am 44 years old",
      "I am a midwife",
      "I live in Porto",
    ]);
    expect(introduction("Ines here, 44, an electrician")).toEqual([
      "Ines here",
      "I am 44 years old",
      "I am an electrician",
    ]);
  });

  it("leaves a clause after the name whole when it is not a list", () => {
    expect(introduction("I'm Jess, I love fish and chips")).toEqual(["I'm Jess", "I love fish and chips"]);
  });

  it("reads no introduction in a state, a nationality or a sentence without a name", () => {
    expect(introduction("I'm tired, 29 hours awake")).toEqual(["I'm tired, 29 hours awake"]);
    expect(introduction("I'm Brazilian, 40 and from Recife")).toEqual(["I'm Brazilian, 40 and from Recife"]);
    expect(introduction("my mum is 62, retired and living in Hull")).toEqual([
      "my mum is 62, retired and living in Hull",
    ]);
  });
});
