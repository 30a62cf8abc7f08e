import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import type { MemoryKind, MemoryRecord, Tier } from "../../model/index.js";
import { dot, normalize } from "../../model/index.js";
import { ExactTextIndex } from "../../test-support/exact-text-index.js";
import { seededRandom, testRecord } from "../../testing/index.js";
import type { Hit, MemoryFilter } from "../storage-port.js";
import { usearch } from "./index-files.js";
import { SqliteStorage } from "./sqlite-storage.js";
import { DEFAULT_ANN_THRESHOLD } from "./user-vectors.js";

/**
 * SQLite's two accelerators against their exact references, over random stores and random interleaved
 * writes from two connections: the full-text planner (ranges, remembered common terms, widening windows)
 * against plain FTS5 over the scope (ExactTextIndex), and the vector search (a persisted graph over a
 * large kind, exact scans of the small ones) against a scan of every vector written.
 *
 * The words of the generated texts are either common (in about 40% of a kind's rows) or rare (under 1%),
 * so the listing rule has one answer however the planner's remembered counts drift. Kinds stay on one
 * side of MIN_SPLIT_ROWS: facts are few, messages and segments many.
 */

const RUNS = Number(process.env.ENGRAM_ACCELERATOR_RUNS ?? 4);
/** The seed a failure printed, to replay it: ENGRAM_ACCELERATOR_SEED=-910699745. */
const SEED = process.env.ENGRAM_ACCELERATOR_SEED ? Number(process.env.ENGRAM_ACCELERATOR_SEED) : undefined;
const DIM = 16;
/** How far a remembered common term's part of BM25 may drift, relative to the score (see expectSameRanking). */
const SCORE_DRIFT = 0.05;
/**
 * How far a score of common terms alone (a query of common words, or the channel's floor) may drift: at a
 * 40% share, a term's IDF moves by up to about 30%
 * while the index grows the 5% after which its part is retaken (ln(0.6/0.4) is small). Such a score is
 * small beside a rare term's, so the ranking barely moves; the channel's floor is often one.
 */
const COMMON_DRIFT = 0.3;
const COMMON = ["lamp", "door", "bird"] as const;
const SYLLABLES = ["bo", "ka", "ri", "tu", "me", "la", "zo"];
const RARE = SYLLABLES.flatMap((a) => SYLLABLES.flatMap((b) => SYLLABLES.map((c) => `${a}${b}${c}n`)));
const USERS = ["ana", "bo"] as const;

interface Written {
  readonly record: MemoryRecord;
  readonly vector: Float32Array;
}

const dir = mkdtempSync(join(tmpdir(), "engram-accelerators-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function textOf(random: () => number): string {
  const words = COMMON.filter(() => random() < 0.4);
  const rare = 1 + Math.floor(random() * 2);
  for (let i = 0; i < rare; i++) words.push(RARE[Math.floor(random() * RARE.length)] as never);
  return words.join(" ");
}

function vectorOf(random: () => number): Float32Array {
  return normalize(Array.from({ length: DIM }, () => random() - 0.5));
}

/**
 * The planner's text hits against the reference's whole ranking (every listed match passing the filter):
 * as many hits, each a listed match with its BM25, none ranked below the reference's k-th. A common term's
 * part of the score is remembered until the index has grown by DRIFT (5%), which moves BM25's statistics a
 * little: scores agree to SCORE_DRIFT of their size (a common term has a small IDF, which moves most).
 */
function expectSameRanking(
  actual: readonly Hit[],
  ranking: readonly Hit[],
  k: number,
  what: string,
  drift = SCORE_DRIFT,
): void {
  expect(actual.length, what).toBe(Math.min(k, ranking.length));
  const scoreOf = new Map(ranking.map((h) => [h.id, h.score]));
  const kth = ranking[actual.length - 1]?.score ?? 0;
  for (const [i, hit] of actual.entries()) {
    const want = scoreOf.get(hit.id);
    expect(want, `${what}: ${hit.id} is listed`).toBeDefined();
    const tolerance = drift * Math.abs(want as number) + 1e-9;
    expect(Math.abs(hit.score - (want as number)), `${what}: score of ${hit.id}`).toBeLessThanOrEqual(
      tolerance,
    );
    expect(want as number, `${what}: ${hit.id} among the best k`).toBeGreaterThanOrEqual(kth - 2 * tolerance);
    if (i > 0) expect((actual[i - 1] as Hit).score, what).toBeGreaterThanOrEqual(hit.score);
  }
}

/** Mostly the user with the large kind; the other is there to be kept apart. */
const user = fc.constantFrom(0, 0, 0, 1);
const operation = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("add" as const),
      conn: fc.nat(1),
      user,
      seed: fc.nat(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant("rewrite" as const), conn: fc.nat(1), seed: fc.nat() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("delete" as const), conn: fc.nat(1), seed: fc.nat() }),
  },
  // Closing saves a connection's graph; the one opened instead maps that file and follows the log from it.
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant("reopen" as const), conn: fc.nat(1), seed: fc.nat() }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("text" as const),
      conn: fc.nat(1),
      user,
      seed: fc.nat(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("vector" as const),
      conn: fc.nat(1),
      user,
      seed: fc.nat(),
    }),
  },
);

const store = fc.record({ seed: fc.nat(), ops: fc.array(operation, { minLength: 20, maxLength: 60 }) });

/** Below and above the size at which a kind is searched through a graph, and just below it, to cross it. */
const MESSAGES = [120, DEFAULT_ANN_THRESHOLD - 5, DEFAULT_ANN_THRESHOLD + 300];

/** A random filter of the kinds the searches of retrieval and of the API use. */
function filterOf(random: () => number, model: Map<string, Written>, userId: string): MemoryFilter {
  const filter: { -readonly [K in keyof MemoryFilter]: MemoryFilter[K] } = {};
  const kinds: MemoryKind[] = ["message", "segment", "fact"];
  if (random() < 0.5) filter.kinds = kinds.filter(() => random() < 0.5);
  if (random() < 0.4) filter.current = true;
  if (random() < 0.2) filter.tiers = [random() < 0.5 ? "short" : "mid"];
  if (random() < 0.2) {
    const mine = [...model.values()].filter((w) => w.record.userId === userId);
    filter.ids = mine.filter(() => random() < 0.3).map((w) => w.record.id);
  }
  return filter;
}

function passes(record: MemoryRecord, userId: string, filter: MemoryFilter): boolean {
  return (
    record.userId === userId &&
    (!filter.kinds || filter.kinds.includes(record.kind)) &&
    (!filter.current || record.expiredAt === null) &&
    (!filter.tiers || filter.tiers.includes(record.tier)) &&
    (!filter.ids || filter.ids.includes(record.id))
  );
}

it.runIf(usearch() !== null).each(MESSAGES)(
  `the full-text planner and the vector search answer as their exact references, over ${RUNS} random stores of %i messages`,
  async (messages) => {
    let round = 0;
    let graphHits = 0;
    let graphFound = 0;
    let clear = 0;
    const missedClear: string[] = [];
    await fc.assert(
      fc.asyncProperty(store, async ({ seed, ops }) => {
        const path = join(dir, `a${round++}.db`);
        const random = seededRandom(seed);
        const conns = [new SqliteStorage({ path }), new SqliteStorage({ path })];
        const model = new Map<string, Written>();
        let next = 0;
        let version = 0;
        const make = (userId: string, kind: MemoryKind, id = `${userId}-${next++}`): Written => ({
          record: testRecord(id, userId, textOf(random), {
            kind,
            tier: (random() < 0.5 ? "short" : "mid") as Tier,
            version: ++version,
            expiredAt: random() < 0.15 ? "2026-02-01T00:00:00.000Z" : null,
          }),
          vector: vectorOf(random),
        });
        const write = async (conn: number, rows: Written[]) => {
          const userId = (rows[0] as Written).record.userId;
          await (conns[conn] as SqliteStorage).write({ userId }, { upsert: rows });
          for (const row of rows) model.set(row.record.id, row);
          return rows;
        };
        const reference = new Database(path, { readonly: true });
        const text = new ExactTextIndex(reference);
        try {
          for (const [user, count] of [
            ["ana", messages],
            ["bo", 150],
          ] as const) {
            await write(
              0,
              Array.from({ length: count }, () => make(user, "message")),
            );
            await write(
              0,
              Array.from({ length: 100 }, () => make(user, "segment")),
            );
            await write(
              0,
              Array.from({ length: 12 }, () => make(user, "fact")),
            );
          }
          let facts = 0;
          // Vectors written (or replaced) after the store was built: half the vector queries look near one
          // of the last three.
          const recent: Float32Array[] = [];
          for (const o of ops) {
            const r = seededRandom(o.seed);
            const s = conns[o.conn] as SqliteStorage;
            const ids = [...model.keys()];
            if (o.op === "reopen") {
              await s.close();
              conns[o.conn] = new SqliteStorage({ path });
            } else if (o.op === "add") {
              // At most 12 more facts: their kind stays under MIN_SPLIT_ROWS, where every match is listed.
              const kind: MemoryKind = facts < 12 && r() < 0.3 ? "fact" : r() < 0.5 ? "segment" : "message";
              if (kind === "fact") facts++;
              const user = USERS[o.user] as string;
              const rows = await write(
                o.conn,
                Array.from({ length: 1 + Math.floor(r() * 20) }, () => make(user, kind)),
              );
              recent.push(...rows.map((w) => w.vector));
            } else if (o.op === "rewrite") {
              const old = model.get(ids[Math.floor(r() * ids.length)] as string) as Written;
              // Messages and segments trade kinds; a fact stays a fact.
              const kind = old.record.kind === "fact" ? "fact" : r() < 0.3 ? "segment" : old.record.kind;
              const row = make(old.record.userId, kind, old.record.id);
              const moved = r() < 0.5;
              await write(o.conn, [moved ? row : { record: row.record, vector: old.vector }]);
              // Looking near a replaced vector finds any stale graph entry left for it.
              recent.push(...(moved ? [row.vector, old.vector] : [old.vector]));
            } else if (o.op === "delete") {
              const gone = ids.filter((id) => model.get(id)?.record.kind !== "fact" && r() < 0.002);
              for (const userId of USERS) {
                const mine = gone.filter((id) => model.get(id)?.record.userId === userId);
                if (mine.length === 0) continue;
                await s.write({ userId }, { deleteIds: mine });
                for (const id of mine) model.delete(id);
              }
            } else if (o.op === "text") {
              const userId = USERS[o.user] as string;
              const words = [
                ...COMMON.filter(() => r() < 0.4),
                ...Array.from({ length: Math.floor(r() * 3) }, () => RARE[Math.floor(r() * RARE.length)]),
                ...(r() < 0.1 ? ["absentword"] : []),
              ];
              const query = {
                text: words.join(" "),
                k: 1 + Math.floor(r() * 60),
                filter: filterOf(r, model, userId),
                statsOver: r() < 0.5 ? 100 : undefined,
              };
              const what = `text ${JSON.stringify({ ...query, filter: { ...query.filter, ids: query.filter.ids?.length } })}`;
              const ranking = text.search(userId, { ...query, k: Number.MAX_SAFE_INTEGER });
              // A query whose only stored words are common scores with common terms' parts alone: they drift
              // as the floor does.
              const stored = (w: string) =>
                [...model.values()].some((m) => m.record.text.split(" ").includes(w));
              const commonOnly = words.every(
                (w) => w === undefined || (COMMON as readonly string[]).includes(w) || !stored(w),
              );
              const drift = commonOnly ? COMMON_DRIFT : SCORE_DRIFT;
              expectSameRanking(await s.textSearch({ userId }, query), ranking, query.k, what, drift);
              if (!query.filter.ids) {
                const [got, want] = [await s.textStats({ userId }, query), text.stats(userId, query)];
                expect(got === null, what).toBe(want === null);
                if (got && want) {
                  expect(got.count, what).toBe(want.count);
                  for (const f of ["mean", "sd", "floor"] as const) {
                    // The deviation's error scales with the scores, not with itself; the floor is often a
                    // match of common terms alone.
                    const scale = f === "sd" ? want.mean : want[f];
                    const allowed = f === "floor" ? COMMON_DRIFT : drift;
                    expect(Math.abs(got[f] - want[f]), `${what}: ${f}`).toBeLessThanOrEqual(
                      allowed * Math.abs(scale) + 1e-9,
                    );
                  }
                }
              }
            } else {
              const userId = USERS[o.user] as string;
              const filter = filterOf(r, model, userId);
              const near =
                recent.length > 0 && r() < 0.5
                  ? recent[recent.length - 1 - Math.floor(r() * Math.min(3, recent.length))]
                  : undefined;
              const vector = near ? normalize(Array.from(near, (x) => x + (r() - 0.5) * 0.1)) : vectorOf(r);
              const query = { vector, k: 1 + Math.floor(r() * 60), filter };
              const eligible = [...model.values()]
                .filter((w) => passes(w.record, userId, filter))
                .map((w) => ({ id: w.record.id, score: dot(w.vector, query.vector) }))
                .sort((a, b) => b.score - a.score);
              const hits = await s.vectorSearch({ userId }, query);
              const stats = await s.vectorStats({ userId }, query);
              const what = `vector k=${query.k} ${JSON.stringify({ ...filter, ids: filter.ids?.length })}`;
              const scoreOf = new Map(eligible.map((h) => [h.id, h.score]));
              for (const [i, h] of hits.entries()) {
                expect(scoreOf.has(h.id), `${what}: ${h.id} passes the filter`).toBe(true);
                expect(Math.abs(h.score - (scoreOf.get(h.id) as number)), what).toBeLessThan(1e-5);
                if (i > 0) expect((hits[i - 1] as Hit).score, what).toBeGreaterThanOrEqual(h.score);
              }
              expect(new Set(hits.map((h) => h.id)).size, what).toBe(hits.length);
              if (stats) {
                // Scanned exactly: the same ranking and the statistics of every eligible vector.
                // (Each hit was checked to carry its own exact score above, so ids differ only among ties.)
                expect(hits.length, what).toBe(Math.min(query.k, eligible.length));
                for (const [i, h] of hits.entries()) {
                  expect(Math.abs(h.score - (eligible[i] as Hit).score), `${what}: rank ${i}`).toBeLessThan(
                    1e-6,
                  );
                }
                const mean = eligible.reduce((a, h) => a + h.score, 0) / eligible.length;
                expect(stats.count, what).toBe(eligible.length);
                expect(stats.mean, what).toBeCloseTo(mean, 5);
              } else {
                // Through the graph: k hits, nearly all of them the exact best k.
                expect(hits.length, what).toBe(Math.min(query.k, eligible.length));
                // A clear nearest neighbour (often the vector just written, looked for) is found.
                const [first, second] = eligible;
                if (first && (!second || first.score - second.score > 0.05)) {
                  clear++;
                  if (hits[0]?.id !== first.id) missedClear.push(`${what}: the clear nearest ${first.id}`);
                }
                const best = new Set(eligible.slice(0, hits.length).map((h) => h.id));
                graphHits += hits.length;
                graphFound += hits.filter((h) => best.has(h.id)).length;
              }
            }
          }
        } finally {
          reference.close();
          for (const c of conns) await c.close();
          for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
          rmSync(`${path}-vectors`, { recursive: true, force: true });
        }
      }),
      // A counterexample over thousands of rows takes minutes to shrink: report it as found.
      { numRuns: RUNS, endOnFailure: true, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
    // An approximate index may miss a neighbour now and then; it must not miss them often.
    if (messages > DEFAULT_ANN_THRESHOLD) expect(graphHits).toBeGreaterThan(0);
    if (graphHits > 0) expect(graphFound / graphHits).toBeGreaterThan(0.95);
    // Even a clear nearest is missed now and then (a few times in a thousand here: the graph is built on
    // several threads and laid out differently from run to run); an entry stale or missing after a write
    // would be missed each time its vector is looked for, so more than one miss fails.
    expect(missedClear.length <= Math.max(1, clear * 0.01), missedClear.join("; ")).toBe(true);
  },
  240_000,
);
