import { describe, expect, it } from "vitest";
import {
  ClosedError,
  ConflictError,
  EmbedderMismatchError,
  EngramError,
  ERROR_CODES,
  ModelError,
  NotFoundError,
  ReadOnlyError,
  ScopeError,
  StorageError,
  UnsupportedError,
  ValidationError,
} from "./index.js";

describe("EngramError", () => {
  it("gives every subclass its code and name", () => {
    const cases: Array<[EngramError, string, string]> = [
      [new ValidationError("m"), "INVALID_INPUT", "ValidationError"],
      [new ScopeError("m"), "SCOPE_REQUIRED", "ScopeError"],
      [new NotFoundError("m"), "NOT_FOUND", "NotFoundError"],
      [new ConflictError("m"), "CONFLICT", "ConflictError"],
      [new StorageError("m"), "STORAGE", "StorageError"],
      [new ModelError("m"), "MODEL", "ModelError"],
      [new ClosedError("the store"), "CLOSED", "ClosedError"],
      [new UnsupportedError("m"), "UNSUPPORTED", "UnsupportedError"],
      [new ReadOnlyError("m"), "READ_ONLY", "ReadOnlyError"],
      [new EmbedderMismatchError("m"), "EMBEDDER_MISMATCH", "EmbedderMismatchError"],
    ];
    for (const [error, code, name] of cases) {
      expect(error.code).toBe(code);
      expect(error.name).toBe(name);
      expect(error).toBeInstanceOf(EngramError);
      expect(error).toBeInstanceOf(Error);
      expect(EngramError.isInstance(error)).toBe(true);
    }
    expect(new Set(cases.map(([e]) => e.code))).toEqual(new Set(ERROR_CODES));
  });

  it("keeps the cause and details", () => {
    const cause = new Error("disk full");
    const error = new StorageError("write failed", { cause, details: { path: "a.db" } });
    expect(error.cause).toBe(cause);
    expect(error.details).toEqual({ path: "a.db" });
    expect(error.message).toBe("write failed");
    expect(new ModelError("x").details).toEqual({});
    expect("cause" in new ModelError("x")).toBe(false);
  });

  it("says how to recover from a closed instance", () => {
    expect(new ClosedError("the store").message).toMatch(/^the store is closed; create a new instance/);
  });

  it("recognises an error from a duplicate install by its global marker", () => {
    const duplicate = Object.assign(new Error("from another copy"), {
      [Symbol.for("engram.error")]: true,
      code: "NOT_FOUND",
    });
    expect(duplicate).not.toBeInstanceOf(EngramError);
    expect(EngramError.isInstance(duplicate)).toBe(true);
  });

  it("rejects lookalikes without the marker", () => {
    expect(EngramError.isInstance(new Error("plain"))).toBe(false);
    expect(EngramError.isInstance({ code: "NOT_FOUND", name: "NotFoundError" })).toBe(false);
    expect(EngramError.isInstance({ [Symbol("engram.error")]: true })).toBe(false);
    expect(EngramError.isInstance({ [Symbol.for("engram.error")]: "yes" })).toBe(false);
    expect(EngramError.isInstance(null)).toBe(false);
    expect(EngramError.isInstance(undefined)).toBe(false);
    expect(EngramError.isInstance("EngramError")).toBe(false);
  });
});
