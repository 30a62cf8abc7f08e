import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { sqliteStorage } from "@engram/core";
import { afterAll, describe, expect, it } from "vitest";
import { holdWriteLock, integrityCheck } from "./support/raw-sqlite.js";
import { CLI, type NodeProcess, spawnNode, TEST_DIR } from "./support/spawn-node.js";
import { makeTempDir } from "./support/temp-dir.js";

const dir = makeTempDir("engram-multi-process-");
const started: NodeProcess[] = [];
afterAll(() => {
  for (const p of started) if (p.child.exitCode === null) p.child.kill("SIGKILL");
  dir.remove();
});

/** A JSONL file of `turns` turns over two sessions, all with their own times. */
function turnsFile(name: string, turns: number): string {
  const path = join(dir.path, name);
  const lines = Array.from({ length: turns }, (_, i) =>
    JSON.stringify({
      role: i % 2 === 0 ? "user" : "assistant",
      content: `${name} turn ${i}: the ferry to the island leaves at ${i % 24}:00`,
      at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      session: `s${i % 2}`,
    }),
  );
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

function startCli(args: readonly string[], startFile: string): NodeProcess {
  const p = spawnNode(CLI, args, {
    preload: [join(TEST_DIR, "support", "start-together.ts")],
    env: { ENGRAM_START_FILE: startFile, CI: "1" },
  });
  started.push(p);
  return p;
}

describe("several processes on one SQLite file", () => {
  it("two `engram ingest` started together on a fresh file both succeed, with the file locked as they open it", async () => {
    const db = join(dir.path, "fresh.db");
    const go = join(dir.path, "go-fresh");
    // Another process is writing as the two open the file: both find no schema and wait for the lock.
    const lock = holdWriteLock(db);
    const cli = ["a", "b"].map((user) =>
      startCli(["ingest", "--user", user, turnsFile(`${user}.jsonl`, 40), "--db", db, "--no-embed"], go),
    );
    await Promise.all(cli.map((p) => p.waitFor("waiting", "stderr")));
    writeFileSync(go, "");
    await new Promise((resolve) => setTimeout(resolve, 700));
    lock.release();
    const codes = await Promise.all(cli.map((p) => p.exited));
    expect(
      codes,
      cli.map((p) => p.output.stderr),
    ).toEqual([0, 0]);
    const storage = sqliteStorage({ path: db });
    expect((await storage.stats({ userId: "a" })).byKind.message).toBe(40);
    expect((await storage.stats({ userId: "b" })).byKind.message).toBe(40);
    await storage.close();
    expect(integrityCheck(db)).toBe("ok");
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
      started.push(p);
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
