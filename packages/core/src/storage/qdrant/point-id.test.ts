import { describe, expect, it } from "vitest";
import { pointIds, uuidv5 } from "./point-id.js";

const DNS_NAMESPACE = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";

describe("uuidv5", () => {
  it("matches the RFC 4122 reference value for www.example.com in the DNS namespace", () => {
    // The value published for this name by Python's uuid.uuid5(uuid.NAMESPACE_DNS, "www.example.com").
    expect(uuidv5("www.example.com", DNS_NAMESPACE)).toBe("2ed6657d-e927-568b-95e1-2665a8aea6a2");
  });

  it("is deterministic, version 5 and RFC 4122 variant", () => {
    const id = uuidv5("m1");
    expect(uuidv5("m1")).toBe(id);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe("pointIds", () => {
  it("gives each kind of thing its own id space", () => {
    expect(pointIds.memory("x")).not.toBe(pointIds.job("x"));
  });

  it("never lets a separator inside an id make two tuples collide", () => {
    expect(pointIds.kv("u", '["a"]', "b")).not.toBe(pointIds.kv("u", '["a"', "]b"));
    expect(pointIds.edge("u", "a\u0000b", "c", "next")).not.toBe(pointIds.edge("u", "a", "b\u0000c", "next"));
  });

  it("scopes per-user things by user, and global ids not", () => {
    expect(pointIds.kv("alice", '["n"]', "k")).not.toBe(pointIds.kv("bob", '["n"]', "k"));
    expect(pointIds.history("alice", "m1", 1, "create")).not.toBe(pointIds.history("bob", "m1", 1, "create"));
  });

  it("keeps a numeric-looking id a UUID (never a number)", () => {
    expect(pointIds.memory("123")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
