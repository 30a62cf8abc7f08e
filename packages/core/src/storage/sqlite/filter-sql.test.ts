import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { MemoryFilter } from "../storage-port.js";
import { filterToSql, needsSqlPrefilter } from "./filter-sql.js";
import { migrate } from "./migrations.js";

const filters: MemoryFilter[] = [
  {},
  { ids: ["a", "b"] },
  { ids: [] },
  { kinds: ["message"], tiers: ["short", "mid"], roles: ["user"] },
  {
    cubes: [
      ["user", "u1"],
      ["project", "p"],
    ],
  },
  { agentId: "ag", sessionId: "s1", key: "k" },
  { current: true, at: "2026-01-01T00:00:00.000Z" },
  { from: "2026-01-01T00:00:00.000Z", to: "2026-02-01T00:00:00.000Z" },
  { metadata: { topic: "work", n: 3, done: true } },
];

describe("filterToSql", () => {
  it.each(filters.map((f) => [JSON.stringify(f), f] as const))(
    "starts with the user scope: %s",
    (_l, filter) => {
      const clause = filterToSql("u1", filter);
      // A leading `+` (an index hint) is allowed; the user condition itself is not optional.
      expect(clause.sql).toMatch(/^\+?m\.user_id = \?( AND |$)/);
      expect(clause.params[0]).toBe("u1");
      expect(clause.sql.split("?").length - 1).toBe(clause.params.length);
    },
  );

  it("binds ids as one JSON array, so any number of ids fits", () => {
    const { sql, params } = filterToSql("u1", { ids: ["a", "b"] });
    expect(sql).toBe("+m.user_id = ? AND m.id IN (SELECT value FROM json_each(?))");
    expect(params).toEqual(["u1", '["a","b"]']);
  });

  it("runs against a real table: keeps other users out, empty id lists match nothing, metadata is type-strict", () => {
    const db = new Database(":memory:");
    db.exec(`CREATE TABLE memories (id TEXT, user_id TEXT, kind TEXT, metadata TEXT);
      INSERT INTO memories VALUES ('a', 'u1', 'message', '{"topic":"work","done":true,"we\\"ird":"x"}'),
        ('b', 'u1', 'fact', '{"topic":"home","done":1}'), ('c', 'u2', 'message', '{"topic":"work","done":true}');`);
    const ids = (filter: MemoryFilter) => {
      const w = filterToSql("u1", filter);
      return db
        .prepare(`SELECT m.id FROM memories m WHERE ${w.sql} ORDER BY m.id`)
        .pluck()
        .all(...w.params);
    };
    expect(ids({})).toEqual(["a", "b"]);
    expect(ids({ ids: [] })).toEqual([]);
    expect(ids({ metadata: { topic: "work", done: true } })).toEqual(["a"]);
    expect(ids({ metadata: { done: 1 } })).toEqual(["b"]);
    expect(ids({ metadata: { 'we"ird': "x" } })).toEqual(["a"]);
    expect(ids({ kinds: ["fact"] })).toEqual(["b"]);
    expect(ids({ ids: ["a", "c"] })).toEqual(["a"]);
    db.close();
  });
});

describe("needsSqlPrefilter", () => {
  it("is false for what the vector index checks itself", () => {
    expect(needsSqlPrefilter()).toBe(false);
    expect(needsSqlPrefilter({ kinds: ["fact"], tiers: ["long"], current: true })).toBe(false);
    expect(needsSqlPrefilter({ sessionId: undefined })).toBe(false);
  });

  it("is true for anything else", () => {
    expect(needsSqlPrefilter({ sessionId: "s1" })).toBe(true);
    expect(needsSqlPrefilter({ kinds: ["fact"], from: "2026-01-01T00:00:00.000Z" })).toBe(true);
    expect(needsSqlPrefilter({ ids: [] })).toBe(true);
  });
});

describe("a time window", () => {
  // The time channel asks for a month of a history of 100,000 memories: a scan of the user's rows would
  // cost tens of milliseconds, a seek on the user's time index next to nothing.
  it("seeks on the user's time index instead of scanning the user's rows", () => {
    const db = new Database(":memory:");
    migrate(db);
    const where = filterToSql("u1", { from: "2026-01-01T00:00:00.000Z", to: "2026-01-31T23:59:59.999Z" });
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN SELECT m.rowid FROM memories m WHERE ${where.sql}`)
      .all(...where.params) as { detail: string }[];
    expect(plan.map((p) => p.detail).join("; ")).toMatch(
      /USING (COVERING )?INDEX memories_user_time \(user_id=\? AND <expr>>\? AND <expr><\?\)/,
    );
    db.close();
  });

  it("keeps rows by valid_from, and rows without one out", () => {
    const db = new Database(":memory:");
    db.exec(`CREATE TABLE memories (id TEXT, user_id TEXT, valid_from TEXT, created_at TEXT);
      INSERT INTO memories VALUES ('in', 'u1', '2026-01-10', '2026-03-01'), ('before', 'u1', '2025-12-31', '2026-01-10'),
        ('undated', 'u1', NULL, '2026-01-10'), ('other', 'u2', '2026-01-10', '2026-01-10');`);
    const where = filterToSql("u1", { from: "2026-01-01", to: "2026-01-31" });
    expect(
      db
        .prepare(`SELECT m.id FROM memories m WHERE ${where.sql}`)
        .pluck()
        .all(...where.params),
    ).toEqual(["in"]);
    db.close();
  });
});
