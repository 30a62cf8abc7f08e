import { describe, expect, it } from "vitest";
import { memoryFilter, selectsNothing } from "./filter.js";
import { metadataTerm } from "./payload.js";
import { pointIds } from "./point-id.js";

const U = { userId: "u1" };
const T = "2026-01-01T00:10:00.000Z";
const T_MS = Date.parse(T);

describe("memoryFilter", () => {
  it("always starts with the tenant condition, even for an empty filter", () => {
    expect(memoryFilter(U)).toEqual({ must: [{ key: "user_id", match: { value: "u1" } }] });
    expect(memoryFilter(U, { kinds: ["fact"] }).must?.[0]).toEqual({
      key: "user_id",
      match: { value: "u1" },
    });
  });

  it("maps ids to point ids, lists to match-any, scalars to match-value", () => {
    const f = memoryFilter(U, {
      ids: ["m1"],
      kinds: ["fact", "page"],
      tiers: ["long"],
      roles: ["user"],
      cubes: [["project", "p1"]],
      agentId: "a1",
      sessionId: "s1",
      key: "city",
    });
    expect(f.must?.slice(1)).toEqual([
      { has_id: [pointIds.memory("m1")] },
      { key: "kind", match: { any: ["fact", "page"] } },
      { key: "tier", match: { any: ["long"] } },
      { key: "role", match: { any: ["user"] } },
      { key: "cube", match: { any: ['["project","p1"]'] } },
      { key: "agent_id", match: { value: "a1" } },
      { key: "session_id", match: { value: "s1" } },
      { key: "key", match: { value: "city" } },
    ]);
  });

  it("maps a null session id and current to is_empty (missing or null)", () => {
    expect(memoryFilter(U, { sessionId: null, current: true }).must?.slice(1)).toEqual([
      { is_empty: { key: "session_id" } },
      { is_empty: { key: "expired_ms" } },
    ]);
    expect(memoryFilter(U, { current: false }).must).toHaveLength(1);
  });

  it("maps at to known-by-then and not-yet-expired, with integer milliseconds", () => {
    expect(memoryFilter(U, { at: T }).must?.slice(1)).toEqual([
      { key: "created_ms", range: { lte: T_MS } },
      { should: [{ is_empty: { key: "expired_ms" } }, { key: "expired_ms", range: { gt: T_MS } }] },
    ]);
  });

  it("maps from and to to an inclusive range on event time", () => {
    expect(memoryFilter(U, { from: T, to: T }).must?.slice(1)).toEqual([
      { key: "valid_ms", range: { gte: T_MS } },
      { key: "valid_ms", range: { lte: T_MS } },
    ]);
  });

  it("maps metadata equality to type-strict keyword terms that keep dotted names literal", () => {
    const f = memoryFilter(U, { metadata: { "a.b": "x", n: 2, flag: true } });
    expect(f.must?.slice(1)).toEqual([
      { key: "meta", match: { value: '["a.b","x"]' } },
      { key: "meta", match: { value: '["n",2]' } },
      { key: "meta", match: { value: '["flag",true]' } },
    ]);
    expect(metadataTerm("n", 2)).not.toBe(metadataTerm("n", "2"));
    expect(metadataTerm("flag", true)).not.toBe(metadataTerm("flag", 1));
  });

  it("refuses a time that is not ISO 8601", () => {
    expect(() => memoryFilter(U, { at: "yesterday" })).toThrow(/filter.at must be an ISO 8601 time/);
  });
});

describe("selectsNothing", () => {
  it("is true for an empty list, false otherwise", () => {
    expect(selectsNothing({ ids: [] })).toBe(true);
    expect(selectsNothing({ kinds: [] })).toBe(true);
    expect(selectsNothing({ kinds: ["fact"] })).toBe(false);
    expect(selectsNothing()).toBe(false);
  });
});
