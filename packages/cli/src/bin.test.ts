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
});
