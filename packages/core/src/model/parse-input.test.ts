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
