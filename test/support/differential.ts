import { EngramError, type MemoryRecord } from "@engram/core";
import { SqliteStorage } from "@engram/core/sqlite";
import { testRecord } from "@engram/core/testing";
import fc from "fast-check";
import { expect } from "vitest";

const USERS = ["ana", "bo"] as const;
/** Ids shared by both users, so a write may name another user's id (and must be refused). */
const IDS = Array.from({ length: 5 }, (_, i) => `m${i}`);
const WORDS = ["lantern", "harbour", "piano", "winter"] as const;
const DIM = 4;

type Op =
  | {
      op: "upsert";
      conn: number;
      user: number;
      id: string;
      words: string[];
      fact: boolean;
      expired: boolean;
      v: number[];
    }
  | { op: "delete"; conn: number; user: number; ids: string[] }
  | { op: "get"; conn: number; user: number; ids: string[] }
  | {
      op: "text";
      conn: number;
      user: number;
      words: string[];
      k: number;
      current: boolean;
      ids: string[] | null;
    }
  | { op: "vector"; conn: number; user: number; v: number[]; k: number; current: boolean }
  | { op: "scan" | "count"; conn: number; user: number; facts: boolean };

const conn = fc.integer({ min: 0, max: 1 });
const user = fc.integer({ min: 0, max: USERS.length - 1 });
const id = fc.constantFrom(...IDS);
const ids = fc.uniqueArray(id, { minLength: 1, maxLength: 4 });
const words = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 });
const vec = fc.array(fc.integer({ min: -4, max: 4 }), { minLength: DIM, maxLength: DIM });
const k = fc.integer({ min: 1, max: 6 });

export const operations: fc.Arbitrary<Op[]> = fc.array(
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        op: fc.constant("upsert" as const),
        conn,
        user,
        id,
        words,
        fact: fc.boolean(),
        expired: fc.boolean(),
        v: vec,
      }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.constant("delete" as const), conn, user, ids }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant("get" as const), conn, user, ids }) },
    {
      weight: 3,
      arbitrary: fc.record({
        op: fc.constant("text" as const),
        conn,
        user,
        words,
        k,
        current: fc.boolean(),
        ids: fc.option(ids, { nil: null }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant("vector" as const),
        conn,
        user,
        v: vec,
        k,
        current: fc.boolean(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constantFrom("scan" as const, "count" as const),
        conn,
        user,
        facts: fc.boolean(),
      }),
    },
  ),
  { minLength: 1, maxLength: 60, size: "max" },
);

function vector(v: readonly number[]): Float32Array {
  const out = Float32Array.from(v.some((x) => x !== 0) ? v : [1, 0, 0, 0]);
  const norm = Math.hypot(...out);
  return out.map((x) => x / norm);
}

/** What the answers are compared on: ids, versions, texts, expiry; hits with their scores. */
const records = (rs: readonly MemoryRecord[]) =>
  rs.map((r) => [r.id, r.userId, r.version, r.text, r.expiredAt]);

/**
 * Applies `ops` through two connections on one file, alternating as generated, and checks every read
 * three ways: against a model of what was written, and (searches) against a third connection opened
 * cold for that read alone, whose caches are empty, so it reads straight from the tables.
 */
export async function runDifferential(path: string, ops: readonly Op[]): Promise<void> {
  const conns = [
    new SqliteStorage({ path, durability: "normal" }),
    new SqliteStorage({ path, durability: "normal" }),
  ];
  const model = new Map<string, MemoryRecord>();
  let version = 0;
  const fresh = async <T>(read: (s: SqliteStorage) => Promise<T>): Promise<T> => {
    const cold = new SqliteStorage({ path, durability: "normal" });
    try {
      return await read(cold);
    } finally {
      await cold.close();
    }
  };
  try {
    for (const o of ops) {
      const s = conns[o.conn] as SqliteStorage;
      const userId = USERS[o.user] as string;
      const scope = { userId };
      const owned = (rs: Iterable<MemoryRecord>) => [...rs].filter((r) => r.userId === userId);
      if (o.op === "upsert") {
        const record = testRecord(o.id, userId, o.words.join(" "), {
          kind: o.fact ? "fact" : "message",
          version: ++version,
          expiredAt: o.expired ? "2026-02-01T00:00:00.000Z" : null,
        });
        const error = await s.write(scope, { upsert: [{ record, vector: vector(o.v) }] }).then(
          () => null,
          (e: unknown) => e,
        );
        const holder = model.get(o.id);
        if (holder && holder.userId !== userId) {
          expect(EngramError.isInstance(error), `another user's id ${o.id}: ${String(error)}`).toBe(true);
        } else {
          expect(error).toBeNull();
          model.set(o.id, record);
        }
      } else if (o.op === "delete") {
        await s.write(scope, { deleteIds: o.ids });
        for (const i of o.ids) if (model.get(i)?.userId === userId) model.delete(i);
      } else if (o.op === "get") {
        const expected = o.ids
          .map((i) => model.get(i))
          .filter((r): r is MemoryRecord => r?.userId === userId);
        expect(records(await s.get(scope, o.ids))).toEqual(records(expected));
      } else if (o.op === "scan" || o.op === "count") {
        const filter = o.facts ? { kinds: ["fact" as const] } : {};
        const mine = owned(model.values()).filter((r) => !o.facts || r.kind === "fact");
        if (o.op === "count") expect(await s.count(scope, filter)).toBe(mine.length);
        else
          expect((await s.scan(scope, { filter })).map((r) => r.id).sort()).toEqual(
            mine.map((r) => r.id).sort(),
          );
      } else {
        const q = o as Exclude<typeof o, { op: "count" | "scan" }>;
        const filter = { current: q.current, ...(q.op === "text" && q.ids ? { ids: q.ids } : {}) };
        const search = (c: SqliteStorage) =>
          q.op === "text"
            ? c.textSearch(scope, { text: q.words.join(" "), k: q.k, filter })
            : c.vectorSearch(scope, { vector: vector(q.v), k: q.k, filter });
        const [warm, cold] = [await search(s), await fresh(search)];
        expect(warm.map((h) => h.id)).toEqual(cold.map((h) => h.id));
        for (const [i, h] of warm.entries())
          expect(h.score).toBeCloseTo((cold[i] as { score: number }).score, 9);
        // Every hit is a live record of this user, current when asked, matching the query's words.
        for (const h of warm) {
          const r = model.get(h.id);
          expect(r?.userId).toBe(userId);
          if (q.current) expect(r?.expiredAt).toBeNull();
          if (q.op === "text") expect(q.words.some((w) => r?.text.includes(w))).toBe(true);
        }
      }
    }
  } finally {
    for (const c of conns) await c.close();
  }
}
