import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, type NodeProcess, spawnNode, TEST_DIR } from "./spawn-node.js";

/**
 * Writes a JSONL file of `turns` dialogue turns, each with its own time, spread over sessions of
 * `perSession` turns. The text names the file, so the turns of two files never coincide.
 */
export function writeTurnsFile(dir: string, name: string, turns: number, perSession = 100): string {
  const path = join(dir, name);
  const lines = Array.from({ length: turns }, (_, i) =>
    JSON.stringify({
      role: i % 2 === 0 ? "user" : "assistant",
      content: `${name} turn ${i}: the ferry to the island leaves at ${i % 24}:00, pier ${i % 7}`,
      at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      session: `s${Math.floor(i / perSession)}`,
    }),
  );
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

/**
 * Starts `engram` processes (from source) that load, then wait for `startFile` to exist before they
 * run: `release()` lets them all go within a few milliseconds of each other.
 */
export function cliTogether(runs: readonly (readonly string[])[], startFile: string) {
  const processes: NodeProcess[] = runs.map((args) =>
    spawnNode(CLI, args, {
      preload: [join(TEST_DIR, "support", "start-together.ts")],
      env: { ENGRAM_START_FILE: startFile, CI: "1" },
    }),
  );
  return {
    processes,
    /** Waits until every process is loaded and waiting, then lets them all go. */
    async release(): Promise<void> {
      await Promise.all(processes.map((p) => p.waitFor("waiting", "stderr")));
      writeFileSync(startFile, "");
    },
    /** Every process's exit code, once all are done. */
    exited: () => Promise.all(processes.map((p) => p.exited)),
    kill(): void {
      for (const p of processes) if (p.child.exitCode === null) p.child.kill("SIGKILL");
    },
  };
}
