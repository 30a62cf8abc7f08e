import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCliCaptured } from "@engram/cli";
import { afterAll, describe, expect, it } from "vitest";
import { chatgptExport, claudeExport } from "./support/chat-exports.js";
import { queryRow } from "./support/raw-sqlite.js";
import { CLI, spawnNode } from "./support/spawn-node.js";
import { makeTempDir } from "./support/temp-dir.js";

const dir = makeTempDir("engram-chat-import-");
afterAll(() => dir.remove());

const cases = [
  // Each first turn's time as the export writes it: seconds with a fraction, or microseconds.
  { format: "chatgpt", make: () => chatgptExport(60, 20), firstAt: "2025-03-01T09:00:00.125Z" },
  { format: "claude", make: () => claudeExport(55, 22), firstAt: "2025-03-01T09:00:00.123Z" },
] as const;

const ingest = (db: string, format: string, file: string) =>
  runCliCaptured(["ingest", "--user", "ana", "--format", format, file, "--db", db, "--no-embed", "--json"]);
const messages = (db: string) => {
  if (!existsSync(db)) return 0;
  try {
    return queryRow<{ n: number }>(db, "SELECT count(*) AS n FROM memories WHERE kind = 'message'").n;
  } catch {
    return 0; // the store is being created
  }
};

describe.each(cases)("engram ingest --format $format", ({ format, make, firstAt }) => {
  const { json, turns } = make();
  const file = join(dir.path, `${format}.json`);
  writeFileSync(file, JSON.stringify(json));

  it("stores every visible turn once, with its session and time; a re-run adds nothing", async () => {
    expect(turns).toBeGreaterThanOrEqual(1000);
    const db = join(dir.path, `${format}.db`);
    const first = await ingest(db, format, file);
    expect(first.stderr).toBe("");
    expect(JSON.parse(first.stdout)).toMatchObject({ format, memories: turns, added: turns });
    expect(messages(db)).toBe(turns);
    const again = await ingest(db, format, file);
    expect(JSON.parse(again.stdout)).toMatchObject({ memories: turns, added: 0 });
    expect(messages(db)).toBe(turns);
    // The first conversation's first turn, found with its session and its time.
    const found = await runCliCaptured([
      "search",
      "--user",
      "ana",
      "Bubbles sourdough",
      "--db",
      db,
      "--no-embed",
      "--json",
      "--k",
      "50",
    ]);
    const results = (JSON.parse(found.stdout) as { results: { text: string; at: string | null }[] }).results;
    const first0 = results.find((r) => r.text.startsWith("conversation 0, turn 0:"));
    expect(first0?.at).toBe(firstAt);
    expect(results.some((r) => /abandoned|search results|edited/.test(r.text))).toBe(false);
  });

  it("ends with exactly every turn after a kill -9 in the middle and a re-run", async () => {
    const db = join(dir.path, `${format}-killed.db`);
    const child = spawnNode(CLI, [
      "ingest",
      "--user",
      "ana",
      "--format",
      format,
      file,
      "--db",
      db,
      "--no-embed",
    ]);
    // Killed once the first step of 1,000 turns is stored (or, on a fast machine, during the tier work).
    await expect
      .poll(() => (child.child.exitCode === null ? messages(db) : turns), { timeout: 60_000, interval: 10 })
      .toBeGreaterThan(0);
    child.child.kill("SIGKILL");
    await child.exited;
    // It was killed while it worked, not after it had finished.
    expect(child.child.signalCode).toBe("SIGKILL");
    const stored = messages(db);
    expect(stored).toBeGreaterThan(0);
    const rerun = await ingest(db, format, file);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ memories: turns, added: turns - stored });
    expect(messages(db)).toBe(turns);
  });

  it("refuses a file that is not such an export, naming the conversation", async () => {
    const bad = join(dir.path, `${format}-bad.json`);
    writeFileSync(bad, JSON.stringify([{ title: "x" }]));
    const r = await ingest(join(dir.path, "never.db"), format, bad);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(new RegExp(`conversation 1 is not a ${format} conversation`));
  });
});

it("engram ingest --format names the formats it knows, and needs --user", async () => {
  const file = join(dir.path, "any.json");
  writeFileSync(file, "[]");
  const wrong = await runCliCaptured(["ingest", "--user", "ana", "--format", "gemini", file, "--no-embed"]);
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toMatch(/bad --format "gemini": expected chatgpt or claude/);
  const noUser = await runCliCaptured(["ingest", "--format", "claude", file, "--no-embed"]);
  expect(noUser.code).toBe(2);
  expect(noUser.stderr).toMatch(/missing --user U/);
});
