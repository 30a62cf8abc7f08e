import { describe, expect, it } from "vitest";
import { ScopeError } from "../errors/index.js";
import {
  assertScope,
  cubeKey,
  cubeSchema,
  parseCubeKey,
  scopeSchema,
  storedIdString,
  userCube,
} from "./scope.js";

describe("assertScope", () => {
  it("accepts a scope with a userId", () => {
    expect(() => assertScope({ userId: "u1" }, "op")).not.toThrow();
  });

  it.each([
    ["no scope", undefined],
    ["no userId", {}],
    ["empty userId", { userId: "" }],
    ["blank userId", { userId: "   " }],
    ["non-string userId", { userId: 42 }],
  ])("refuses %s", (_label, scope) => {
    let thrown: unknown;
    try {
      assertScope(scope as { userId?: unknown } | undefined, "sqlite.scan");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ScopeError);
    expect((thrown as ScopeError).code).toBe("SCOPE_REQUIRED");
    expect((thrown as ScopeError).message).toMatch(/^sqlite\.scan: refused an unscoped call; pass a scope/);
  });
});

describe("cubes and scope schema", () => {
  it("round-trips a cube key", () => {
    const cube = userCube('u,1"]');
    expect(cube).toEqual(["user", 'u,1"]']);
    expect(parseCubeKey(cubeKey(cube))).toEqual(cube);
  });

  it("trims ids and refuses blank ones", () => {
    expect(scopeSchema.parse({ userId: " u1 " })).toEqual({ userId: "u1" });
    expect(scopeSchema.safeParse({ userId: "  " }).success).toBe(false);
    expect(scopeSchema.safeParse({ userId: "x".repeat(257) }).success).toBe(false);
  });

  it.each([
    ["a newline", "alice\nmallory"],
    ["an escape sequence", "eve\u001b[2K\u001b[1Gbob"],
    ["a carriage return", "a\rb"],
    ["DEL", "a\u007fb"],
    ["a C1 control", "a\u0085b"],
    ["a line separator", "a\u2028b"],
    ["a paragraph separator", "a\u2029b"],
    ["a right-to-left override", "a\u202Eb"],
    ["a bidi isolate", "a\u2066b"],
    ["a right-to-left mark", "a\u200Fb"],
  ])("refuses an id or cube part holding %s, naming the field", (_label, id) => {
    for (const field of ["userId", "agentId", "sessionId"]) {
      const result = scopeSchema.safeParse({ userId: "u1", [field]: id });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual([field]);
      expect(result.error?.issues[0]?.message).toMatch(/^must not hold control characters/);
    }
    expect(cubeSchema.safeParse(["project", id]).success).toBe(false);
  });

  it("accepts ids in any script, with emoji joiners and spaces", () => {
    for (const id of ["Łukasz", "用户 7", "עדי", "👩‍👩‍👧", "ana@example.com"]) {
      expect(scopeSchema.safeParse({ userId: id }).success).toBe(true);
    }
  });

  it("storedIdString, for forget, still takes an id stored with a control character", () => {
    expect(storedIdString.parse("alice\nmallory")).toBe("alice\nmallory");
    expect(storedIdString.safeParse("  ").success).toBe(false);
  });
});
