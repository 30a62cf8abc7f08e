import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCliCaptured } from "@engram/cli";
import fc from "fast-check";
import { expect } from "vitest";
import { StoreDigest } from "../store-digest.js";
import { hostileString, hostileValue, USERS } from "./hostile.js";

/** Commands fuzzed in-process: all but serve (a server), eval and demo (long runs of their own). */
const COMMANDS = [
  "search",
  "context",
  "list",
  "show",
  "profile",
  "stats",
  "feedback",
  "edit",
  "delete",
  "forget",
  "export",
  "ingest",
  "import",
  "help",
] as const;
const FLAGS = [
  "--user",
  "--json",
  "--no-embed",
  "--readonly",
  "--k",
  "--budget",
  "--kind",
  "--tier",
  "--limit",
  "--text",
  "--at",
  "-h",
  "--",
  "-",
  "--unknown",
  "--user=ana",
  "--k=0",
  "--limit=-1",
];
/** Flags that name another store or a file to write: never generated, so the fuzz stays in its directory. */
const FORBIDDEN = /^-*(db|qdrant|out|token|data)/i;

const token = fc
  .oneof(
    { weight: 4, arbitrary: fc.constantFrom(...FLAGS) },
    {
      weight: 3,
      arbitrary: fc.constantFrom<string>(...USERS, "lantern harbour", "0", "10", "message", "fact", "mid"),
    },
    { weight: 3, arbitrary: hostileString },
  )
  .filter((t) => !FORBIDDEN.test(t) && t.length < 10_000);

/** A JSONL line: a valid message, a broken one, or no JSON at all. */
const jsonlLine = fc.oneof(
  fc
    .record({
      role: fc.constantFrom("user", "assistant"),
      content: fc.constantFrom("the lantern by the harbour", "my sister"),
    })
    .map((m) => JSON.stringify(m)),
  fc
    .record(
      {
        role: hostileValue,
        content: hostileValue,
        at: hostileValue,
        id: hostileValue,
        session: hostileValue,
      },
      { requiredKeys: [] },
    )
    .map((m) => JSON.stringify(m) ?? "null"),
  hostileString.map((s) => s.replace(/\n/g, " ")),
  fc.constantFrom("", "{", "[]", "null", '{"role":"user","content":"x"', '{"conversation":{}}', "\uFEFF{}"),
);
const fileContent = fc.oneof(
  { weight: 4, arbitrary: fc.array(jsonlLine, { maxLength: 6 }).map((lines) => lines.join("\n")) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? "") },
  {
    weight: 1,
    arbitrary: fc.constant(JSON.stringify([{ sample_id: "x", conversation: { speaker_a: "A" } }])),
  },
);

export interface CliTally {
  runs: number;
  failed: number;
  byCode: Record<number, number>;
}

/**
 * Runs `engram` command lines in-process, `runs` times: a known command, hostile arguments, and for
 * ingest/import a file of generated content. Every run exits 0, 1 or 2 with no "unexpected error", and
 * one that fails leaves the store's content unchanged.
 */
export async function fuzzCli(dir: string, runs: number, seed?: number): Promise<CliTally> {
  const db = join(dir, "cli.db");
  const env = { ENGRAM_DB: db, ENGRAM_EMBEDDER: "none" };
  const file = join(dir, "input.jsonl");
  writeFileSync(file, '{"role":"user","content":"my sister keeps a lantern by the harbour"}\n');
  expect((await runCliCaptured(["ingest", "--user", "ana", file], { env })).code).toBe(0);
  const digest = new StoreDigest(db);
  const tally: CliTally = { runs: 0, failed: 0, byCode: {} };
  // Most lines name a user first, so the commands get past the first check more often.
  const user = fc.oneof(
    fc.constantFrom(...USERS).map((u) => ["--user", u]),
    fc.constant([]),
  );
  const argv = fc.tuple(
    fc.constantFrom(...COMMANDS),
    fc.tuple(user, fc.array(token, { maxLength: 4 })).map(([u, rest]) => [...u, ...rest]),
    fileContent,
    fc.boolean(),
  );
  try {
    await fc.assert(
      fc.asyncProperty(argv, async ([command, args, content, withFile]) => {
        tally.runs++;
        const fileArgs = (command === "ingest" || command === "import") && withFile ? [file] : [];
        if (fileArgs.length) writeFileSync(file, content);
        const before = digest.digest();
        // With a file, the file's content is what is fuzzed: only the user (and maybe one token) before it.
        const line = fileArgs.length ? [...args.slice(0, args[0] === "--user" ? 3 : 1), ...fileArgs] : args;
        const run = await runCliCaptured([command, ...line], { env });
        tally.byCode[run.code] = (tally.byCode[run.code] ?? 0) + 1;
        expect([0, 1, 2], run.stderr).toContain(run.code);
        expect(run.stderr).not.toMatch(/unexpected error/);
        if (run.code === 0) return;
        tally.failed++;
        expect(run.stderr).toMatch(/^engram /);
        expect(digest.digest(), `${command} failed (${run.stderr.trim()}) but changed the store`).toBe(
          before,
        );
      }),
      { numRuns: runs, ...(seed !== undefined ? { seed } : {}) },
    );
  } finally {
    digest.close();
  }
  return tally;
}
