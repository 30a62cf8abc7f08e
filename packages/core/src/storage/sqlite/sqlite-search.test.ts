import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryRecord } from "../../model/index.js";
import { ftsMatch, ownerToken } from "./sqlite-search.js";
import { SqliteStorage } from "./sqlite-storage.js";

function record(
  id: string,
  userId: string,
  text: string,
  kind: MemoryRecord["kind"] = "message",
): MemoryRecord {
  const at = "2026-01-01T00:00:00.000Z";
  return {
    id,
    userId,
    cube: ["user", userId],
    agentId: null,
    sessionId: null,
    kind,
    tier: "short",
    role: null,
    name: null,
    text,
    context: null,
    key: null,
    metadata: {},
    status: "ready",
    version: 1,
    validFrom: at,
    validTo: null,
    createdAt: at,
    updatedAt: at,
    expiredAt: null,
  };
}

describe("ftsMatch", () => {
  it("scopes by the owner token and ORs the quoted content words", () => {
    expect(ftsMatch("u1", "Where is the red kite?")).toBe(
      `owner : "${ownerToken("u1")}" AND body : ("red" OR "kite")`,
    );
  });

  it("quotes FTS5 syntax away", () => {
    expect(ftsMatch("u1", '"AND OR NEAR( * kite*')).toBe(
      `owner : "${ownerToken("u1")}" AND body : ("near" OR "kite")`,
    );
    expect(ftsMatch("u1", "body:secret owner:x")).toBe(
      `owner : "${ownerToken("u1")}" AND body : ("body" OR "secret" OR "owner" OR "x")`,
    );
  });

  it("is null when nothing searchable is left", () => {
    expect(ftsMatch("u1", "the and of")).toBeNull();
    expect(ftsMatch("u1", '"( * ^ - )"')).toBeNull();
  });

  it("derives distinct, opaque owner tokens", () => {
    expect(ownerToken("u1")).toMatch(/^u[0-9a-f]{24}$/);
    expect(ownerToken("u1")).not.toBe(ownerToken("u2"));
  });
});

describe("textSearch", () => {
  const storage = new SqliteStorage({ path: ":memory:" });
  const u1 = { userId: "u1" };

  beforeAll(async () => {
    await storage.write(u1, {
      upsert: [
        { record: record("a", "u1", "The red kite circled the red barn"), vector: null },
        { record: record("b", "u1", "A kite festival near the beach"), vector: null },
        { record: record("c", "u1", "Grocery list: eggs, milk"), vector: null },
        { record: record("f", "u1", "red kite fact", "fact"), vector: null },
      ],
    });
    await storage.write(
      { userId: "u2" },
      { upsert: [{ record: record("z", "u2", "red kite red kite"), vector: null }] },
    );
  });
  afterAll(() => storage.close());

  it("ranks by BM25 with higher scores better, within the user only", async () => {
    const hits = await storage.textSearch(u1, { text: "red kite", k: 10 });
    expect(hits.map((h) => h.id).sort()).toEqual(["a", "b", "f"]);
    expect(hits[0]?.score).toBeGreaterThan(hits.at(-1)?.score as number);
    expect(hits.at(-1)?.id).toBe("b");
    for (let i = 1; i < hits.length; i++)
      expect(hits[i - 1]?.score).toBeGreaterThanOrEqual(hits[i]?.score as number);
  });

  it("respects k and filters", async () => {
    expect(await storage.textSearch(u1, { text: "red kite", k: 1 })).toHaveLength(1);
    const facts = await storage.textSearch(u1, { text: "red kite", k: 10, filter: { kinds: ["fact"] } });
    expect(facts.map((h) => h.id)).toEqual(["f"]);
  });

  it.each([
    '"AND OR NEAR( *',
    "kite AND",
    "NOT kite",
    "kite*",
    "-kite",
    "{body} : kite",
    "owner : kite",
    "kite^2",
    "'kite'",
    '"kite',
    "kite) OR (",
  ])("does not break on %j", async (text) => {
    const hits = await storage.textSearch(u1, { text, k: 10 });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => ["a", "b", "c", "f"].includes(h.id))).toBe(true);
  });

  it("cannot reach another user through their owner token", async () => {
    expect(await storage.textSearch(u1, { text: ownerToken("u2"), k: 10 })).toEqual([]);
    expect(await storage.textSearch(u1, { text: "the of", k: 10 })).toEqual([]);
  });
});
