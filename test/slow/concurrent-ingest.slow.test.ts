import { join } from "node:path";
import { sqliteStorage } from "@engram/core/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { cliTogether, writeTurnsFile } from "../support/concurrent-cli.js";
import { integrityCheck, queryRow } from "../support/raw-sqlite.js";
import { makeTempDir } from "../support/temp-dir.js";

const PROCESSES = 8;
const TURNS = 2000;
const dir = makeTempDir("engram-concurrent-ingest-");
const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const cleanup of cleanups) cleanup();
  dir.remove();
});

/** Starts one `engram ingest` per run together on `db` (full-text only: this is about storage), waits. */
async function ingestTogether(db: string, runs: readonly { user: string; file: string }[], name: string) {
  const run = cliTogether(
    runs.map(({ user, file }) => ["ingest", "--user", user, file, "--db", db, "--no-embed", "--json"]),
    join(dir.path, `go-${name}`),
  );
  cleanups.push(run.kill);
  await run.release();
  const codes = await run.exited();
  const stderr = run.processes.map((p) => p.output.stderr);
  expect(codes, stderr.join("\n")).toEqual(runs.map(() => 0));
  for (const text of stderr) expect(text).not.toMatch(/error|locked|busy/i);
  return run.processes.map((p) => JSON.parse(p.output.stdout) as { memories: number; added: number });
}

/** Each mid-term turn belongs to exactly one segment: no two tier runs moved the same page. */
function segmentLinks(db: string) {
  return queryRow<{ most: number; fewest: number; turns: number }>(
    db,
    `SELECT max(n) AS most, min(n) AS fewest, count(*) AS turns FROM (
       SELECT count(e.src) AS n FROM memories m
       LEFT JOIN edges e ON e.user_id = m.user_id AND e.src = m.id AND e.type = 'part_of'
       WHERE m.kind = 'message' AND m.tier = 'mid' GROUP BY m.id)`,
  );
}

describe(`${PROCESSES} processes x ${TURNS} turns into one new database`, () => {
  it("stores every turn exactly once with no error, and running one file again adds nothing", async () => {
    const db = join(dir.path, "many.db");
    const runs = Array.from({ length: PROCESSES }, (_, i) => ({
      user: `u${i}`,
      file: writeTurnsFile(dir.path, `u${i}.jsonl`, TURNS),
    }));
    const started = performance.now();
    const reports = await ingestTogether(db, runs, "many");
    console.log(`${PROCESSES} x ${TURNS} turns: ${Math.round(performance.now() - started)} ms`);
    expect(reports.map((r) => r.added)).toEqual(runs.map(() => TURNS));
    const turns = queryRow<{ n: number; ids: number; texts: number }>(
      db,
      "SELECT count(*) AS n, count(DISTINCT id) AS ids, count(DISTINCT text) AS texts FROM memories WHERE kind = 'message'",
    );
    expect(turns).toEqual({ n: PROCESSES * TURNS, ids: PROCESSES * TURNS, texts: PROCESSES * TURNS });
    const storage = sqliteStorage({ path: db });
    for (const { user } of runs) expect((await storage.stats({ userId: user })).byKind.message).toBe(TURNS);
    const before = await storage.stats();
    await storage.close();
    expect(segmentLinks(db)).toMatchObject({ most: 1, fewest: 1 });
    expect(integrityCheck(db)).toBe("ok");

    const [again] = await ingestTogether(db, [runs[0] as (typeof runs)[number]], "again");
    expect(again).toMatchObject({ memories: TURNS, added: 0 });
    const after = sqliteStorage({ path: db });
    expect(await after.stats()).toEqual(before);
    await after.close();
  });

  it("the same file ingested by every process for one user is stored once, each turn in one segment", async () => {
    const db = join(dir.path, "same.db");
    const file = writeTurnsFile(dir.path, "same.jsonl", TURNS);
    const reports = await ingestTogether(
      db,
      Array.from({ length: PROCESSES }, () => ({ user: "u", file })),
      "same",
    );
    expect(reports.reduce((n, r) => n + r.added, 0)).toBe(TURNS);
    expect(queryRow<{ n: number }>(db, "SELECT count(*) AS n FROM memories WHERE kind = 'message'").n).toBe(
      TURNS,
    );
    expect(segmentLinks(db)).toMatchObject({ most: 1, fewest: 1 });
    expect(integrityCheck(db)).toBe("ok");
  });
});
