import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../../..");
const dir = mkdtempSync(join(tmpdir(), "engram-cli-bin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("pnpm engram (the real process)", () => {
  it("runs a command from the repository root and prints only its JSON document on stdout", async () => {
    const file = join(dir, "turns.jsonl");
    writeFileSync(file, `${JSON.stringify({ role: "user", content: "I grow chillies on the balcony." })}\n`);
    const args = [
      "-s",
      "engram",
      "ingest",
      "--user",
      "u1",
      file,
      "--db",
      join(dir, "b.db"),
      "--no-embed",
      "--json",
    ];
    const { stdout } = await promisify(execFile)("pnpm", args, {
      cwd: root,
      env: { ...process.env, CI: "1" },
    });
    expect(JSON.parse(stdout)).toEqual({
      format: "jsonl",
      memories: 1,
      added: 1,
      users: [{ userId: "u1", memories: 1, added: 1, pending: 0 }],
    });
  });

  it("shows escape sequences escaped on the process's own stdout: a file name's, and stored ones", async () => {
    // A file name with an escape sequence and an 8-bit CSI, both of which ingest quotes back.
    const file = join(dir, "t\u001b]0;pwned\u0007\u009bqq.jsonl");
    const content = "pepper \u001b]0;pwned\u0007\u001b[2J";
    writeFileSync(file, `${JSON.stringify({ role: "user", content })}\n`);
    const run = (...args: string[]) =>
      promisify(execFile)("pnpm", ["-s", "engram", ...args, "--db", join(dir, "t.db"), "--no-embed"], {
        cwd: root,
        env: { ...process.env, CI: "1" },
      });
    const ingested = await run("ingest", "--user", "u1", file);
    expect(ingested.stdout).toContain("t\\u001b]0;pwned\\u0007\\u009bqq.jsonl");
    const found = await run("search", "--user", "u1", "pepper");
    expect(found.stdout).toContain("pepper \\u001b]0;pwned\\u0007\\u001b[2J");
    for (const raw of ["\u001b", "\u0007", "\u009b"])
      expect(ingested.stdout + found.stdout).not.toContain(raw);
  });
});
