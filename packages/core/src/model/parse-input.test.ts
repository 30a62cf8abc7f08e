import { describe, expect, it } from "vitest";
import { z } from "zod";
import { EngramError, ValidationError } from "../errors/index.js";
import { parseInput } from "./parse-input.js";

const schema = z.object({
  userId: z.string().min(1),
  messages: z.array(z.object({ content: z.string() })),
});

function failure(value: unknown): ValidationError {
  try {
    parseInput(schema, value, "add");
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error("expected a ValidationError");
}

describe("parseInput", () => {
  it("refuses keys the input does not know, by name, with the known ones (a typo is never dropped)", () => {
    const error = failure({ userId: "u1", messages: [], limit: 3, filter: {} });
    expect(error.message).toBe('add: unknown keys "limit", "filter"; known: userId, messages');
    expect(failure({ userId: "u1", mesages: [] }).message).toMatch(/^add: unknown key "mesages"; known:/);
    // A nested object of the schema is its own business (loose unless it says otherwise).
    expect(parseInput(schema, { userId: "u1", messages: [{ content: "x", extra: 1 }] }, "add")).toEqual({
      userId: "u1",
      messages: [{ content: "x" }],
    });
    // A schema that takes any key (catchall) keeps doing so.
    const open = z.object({ userId: z.string() }).catchall(z.number());
    expect(parseInput(open, { userId: "u", n: 1 }, "x")).toEqual({ userId: "u", n: 1 });
  });

  it("returns the parsed value", () => {
    const value = { userId: "u1", messages: [{ content: "hi" }] };
    expect(parseInput(schema, value, "add")).toEqual(value);
  });

  it("names the operation and the nested field path", () => {
    const error = failure({ userId: "u1", messages: [{ content: "ok" }, { content: 5 }] });
    expect(error.message).toMatch(/^add: messages\.1\.content: /);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.details.path).toBe("messages.1.content");
    expect(Array.isArray(error.details.issues)).toBe(true);
    expect(EngramError.isInstance(error)).toBe(true);
  });

  it("names a missing top-level field", () => {
    const error = failure({ messages: [] });
    expect(error.message).toMatch(/^add: userId: /);
    expect(error.details.path).toBe("userId");
  });

  it("says (input) when the value itself is wrong", () => {
    const error = failure("not an object");
    expect(error.message).toMatch(/^add: \(input\): /);
    expect(error.details.path).toBe("(input)");
  });
});
