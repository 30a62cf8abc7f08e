import { describe, expect, it } from "vitest";
import { ScopeError } from "../errors/index.js";
import { assertScope, cubeKey, parseCubeKey, scopeSchema, userCube } from "./scope.js";

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
});
