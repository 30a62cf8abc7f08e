import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "../run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "engram-cli-readonly-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const digest = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

describe("--readonly", () => {
  it("lets every reading command work and leaves the store's file, and its directory, as they were", async () => {
    const store = join(dir, "store");
    const db = join(store, "engram.db");
    const input = join(dir, "turns.jsonl");
    writeFileSync(input, `${JSON.stringify({ role: "user", content: "My sister Maria lives in Porto." })}\n`);
    const cli = (...args: string[]) => runCliCaptured([...args, "--db", db, "--no-embed"]);
    expect((await cli("ingest", "--user", "u", input)).code).toBe(0);
    const id = (
      JSON.parse((await cli("list", "--user", "u", "--json")).stdout) as { memories: { id: string }[] }
    ).memories[0]?.id as string;
    const before = digest(db);
    const runs = [
      ["search", "--user", "u", "sister"],
      ["context", "--user", "u", "sister"],
      ["profile", "--user", "u"],
      ["list", "--user", "u"],
      ["show", id, "--user", "u"],
      ["stats"],
      ["export", "--user", "u"],
    ];
    for (const args of runs) {
      const run = await cli(...args, "--readonly");
      expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: "" });
    }
    expect((await cli("search", "--user", "u", "sister", "--readonly")).stdout).toContain("Maria");
    expect(readdirSync(store)).toEqual(["engram.db"]);
    expect(digest(db)).toBe(before);
  });

  it("is refused with a Qdrant store, which has no read-only mode", async () => {
    const run = await runCliCaptured(["stats", "--qdrant-url", "http://localhost:6333", "--readonly"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--readonly applies to a SQLite store");
  });
});
