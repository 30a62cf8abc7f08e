/**
 * A child for the SIGKILL trials: `kill-ingest-loop.ts <db> <dir> <trial> <user>`. Prints "ready" once
 * loaded; on a line from the parent it runs `engram ingest` (the command's own code, in-process, as bin.ts runs it) on one new
 * 40-turn JSONL file after another, printing "acked <n>" when an ingest of file n has exited 0. Killed
 * by the parent at a random moment.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "@engram/cli";

const [db, dir, trial, user] = process.argv.slice(2) as [string, string, string, string];
const TURNS = 40;
const env = { ...process.env, ENGRAM_DB: db, ENGRAM_EMBEDDER: "none" };

// The CLI loads a command's code when it first runs: one ingest into a scratch store first, so the kills
// land in ingest work rather than in module loading.
const warm = join(dir, `warm-${trial}.jsonl`);
writeFileSync(warm, `${JSON.stringify({ role: "user", content: "warm-up" })}\n`);
const quiet = { write: () => true };
const warmIo = {
  stdout: quiet,
  stderr: process.stderr,
  env: { ...env, ENGRAM_DB: join(dir, `warm-${trial}.db`) },
};
if ((await runCli(["ingest", "--user", user, warm], warmIo)) !== 0)
  throw new Error("the warm-up ingest failed");
process.stdout.write("ready\n");
// Loaded ahead of its trial: start when the parent says so.
await new Promise((resolve) => process.stdin.once("data", resolve));
for (let n = 0; n < 1000; n++) {
  const file = join(dir, `t${trial}-f${n}.jsonl`);
  const lines = Array.from({ length: TURNS }, (_, i) =>
    JSON.stringify({
      role: i % 2 === 0 ? "user" : "assistant",
      content: `trial ${trial} file ${n} turn ${i}: the ferry to the island leaves at ${i % 24}:00`,
      session: `t${trial}-f${n}`,
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    }),
  );
  writeFileSync(file, `${lines.join("\n")}\n`);
  const io = { stdout: process.stdout, stderr: process.stderr, env };
  const code = await runCli(["ingest", "--user", user, file], io);
  if (code !== 0) throw new Error(`ingest of ${file} exited ${code}`);
  process.stdout.write(`acked ${n}\n`);
}
