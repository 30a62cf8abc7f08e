import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { SqliteStorage, sqliteStorage } from "@engram/core/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { cliTogether, writeTurnsFile } from "./support/concurrent-cli.js";
import { stored, unit } from "./support/make-record.js";
import { holdWriteLock, integrityCheck } from "./support/raw-sqlite.js";
import { CLI, spawnNode, TEST_DIR } from "./support/spawn-node.js";
import { makeTempDir } from "./support/temp-dir.js";

const dir = makeTempDir("engram-multi-process-");
const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const cleanup of cleanups) cleanup();
  dir.remove();
});

describe("several processes on one SQLite file", () => {
  it("two `engram ingest` started together on a fresh file both succeed, with the file locked as they open it", async () => {
    const db = join(dir.path, "fresh.db");
    // Another process is writing as the two open the file: both find no schema and wait for the lock.
    const lock = holdWriteLock(db);
    const run = cliTogether(
      ["a", "b"].map((user) => [
        "ingest",
        "--user",
        user,
        writeTurnsFile(dir.path, `${user}.jsonl`, 40, 20),
        "--db",
        db,
        "--no-embed",
      ]),
      join(dir.path, "go-fresh"),
    );
    cleanups.push(run.kill);
    await run.release();
    await new Promise((resolve) => setTimeout(resolve, 700));
    lock.release();
    expect(await run.exited(), run.processes.map((p) => p.output.stderr).join("\n")).toEqual([0, 0]);
    const storage = sqliteStorage({ path: db });
    expect((await storage.stats({ userId: "a" })).byKind.message).toBe(40);
    expect((await storage.stats({ userId: "b" })).byKind.message).toBe(40);
    const before = await storage.stats();
    await storage.close();
    expect(integrityCheck(db)).toBe("ok");

    // Running one of them again adds nothing.
    const again = spawnNode(CLI, [
      "ingest",
      "--user",
      "a",
      join(dir.path, "a.jsonl"),
      "--db",
      db,
      "--no-embed",
    ]);
    expect(await again.exited, again.output.stderr).toBe(0);
    expect(again.output.stdout).toContain("40 of them were stored already, 0 added");
    const reopened = sqliteStorage({ path: db });
    expect(await reopened.stats()).toEqual(before);
    await reopened.close();
  });

  it("two workers in two processes never run one job, even jobs that outlast their lease", async () => {
    const db = join(dir.path, "jobs.db");
    const storage = sqliteStorage({ path: db });
    const now = Date.now();
    const jobs = Array.from({ length: 24 }, (_, i) => ({
      id: `job${String(i).padStart(2, "0")}`,
      type: "work",
      payload: {},
      runAt: new Date(now - 1000 + i).toISOString(),
    }));
    await storage.write({ userId: "u1" }, { jobs });
    // A 300 ms lease, 16 jobs claimed at once and 100 ms each: held jobs outlive their first lease.
    const workers = [0, 1].map(() => {
      const p = spawnNode(join(TEST_DIR, "support", "job-worker.ts"), [db, "300", "100"]);
      cleanups.push(() => p.child.kill("SIGKILL"));
      return p;
    });
    await Promise.all(workers.map((w) => w.waitFor("ready")));
    for (const w of workers) w.child.stdin.write("go\n");
    expect(
      await Promise.all(workers.map((w) => w.exited)),
      workers.map((w) => w.output.stderr).join("\n"),
    ).toEqual([0, 0]);
    const runs = workers.flatMap((w) => w.output.stdout.split("\n").filter((l) => l.startsWith("start ")));
    expect(runs.map((l) => l.slice("start ".length)).sort()).toEqual(jobs.map((j) => j.id));
    expect((await storage.jobs({ userId: "u1" }, "done")).length).toBe(jobs.length);
    await storage.close();
  });

  it("a large scope's persisted vector index: a killed process's committed write is found by the next search here and after a reopen", async () => {
    const db = join(dir.path, "vectors.db");
    const userId = "big";
    const scope = { userId };
    const query = unit(1, 1, 1, 1, 1, 1, 1, 1);
    // Enough vectors of one kind for the backend to search them through its persisted index.
    const random = (i: number) =>
      unit(...Array.from({ length: 8 }, (_, j) => (Math.sin(i * 12.9898 + j * 78.233) * 43758.5453) % 1));
    const a = new SqliteStorage({ path: db, durability: "normal" });
    await a.write(scope, {
      upsert: Array.from({ length: 5600 }, (_, i) => stored({ id: `r${i}`, userId }, random(i))),
    });
    expect((await a.vectorSearch(scope, { vector: query, k: 1 }))[0]?.id).not.toBe("written-elsewhere");
    const files = () => {
      const root = `${db}-vectors`;
      if (!existsSync(root)) return [];
      return readdirSync(root).flatMap((user) =>
        readdirSync(join(root, user))
          .filter((f) => f.endsWith(".usearch"))
          .map((f) => `${f}:${statSync(join(root, user, f)).mtimeMs}`),
      );
    };
    const saved = files();
    expect(saved).toHaveLength(1);
    const writer = spawnNode(join(TEST_DIR, "support", "vector-writer.ts"), [
      db,
      userId,
      "written-elsewhere",
    ]);
    cleanups.push(() => writer.child.kill("SIGKILL"));
    await writer.waitFor("committed");
    writer.child.kill("SIGKILL");
    await writer.exited;
    // The writer died without saving: the file on disk is the one from before its write.
    expect(files()).toEqual(saved);
    expect((await a.vectorSearch(scope, { vector: query, k: 1 }))[0]?.id).toBe("written-elsewhere");
    const b = new SqliteStorage({ path: db });
    expect((await b.vectorSearch(scope, { vector: query, k: 1 }))[0]?.id).toBe("written-elsewhere");
    await b.close();
    await a.close();
  });
});
