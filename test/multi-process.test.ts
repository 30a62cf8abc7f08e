import { join } from "node:path";
import { sqliteStorage } from "@engram/core/sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { cliTogether, writeTurnsFile } from "./support/concurrent-cli.js";
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
    expect(
      await run.exited(),
      run.processes.map((p) => p.output.stderr),
    ).toEqual([0, 0]);
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
      workers.map((w) => w.output.stderr),
    ).toEqual([0, 0]);
    const runs = workers.flatMap((w) => w.output.stdout.split("\n").filter((l) => l.startsWith("start ")));
    expect(runs.map((l) => l.slice("start ".length)).sort()).toEqual(jobs.map((j) => j.id));
    expect((await storage.jobs({ userId: "u1" }, "done")).length).toBe(jobs.length);
    await storage.close();
  });
});
