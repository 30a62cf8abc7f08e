import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MEMORY_KINDS } from "@engram/core";
import { describe, expect, it } from "vitest";
import { LIST_KINDS_TEXT } from "./commands/command-table.js";
import { COMMANDS } from "./commands/index.js";
import { runCliCaptured } from "./run-cli.js";

describe("runCli", () => {
  it("prints the overview for help, listing every command of this release", async () => {
    const run = await runCliCaptured(["help"]);
    expect(run.code).toBe(0);
    for (const name of [
      "ingest",
      "search",
      "list",
      "show",
      "edit",
      "delete",
      "forget",
      "skills",
      "export",
      "import",
      "stats",
      "eval",
    ]) {
      expect(run.stdout).toContain(`  ${name} `);
    }
    expect(run.stderr).toBe("");
  });

  it("lists the memory kinds in list's help as the engine has them", () => {
    expect(LIST_KINDS_TEXT).toBe(MEMORY_KINDS.join(", "));
  });

  it("has every command in the package README, with an example", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const rows = readme.split("\n").filter((line) => line.startsWith("| `"));
    // A row per command: `| \`name ...\` | does | \`engram [global flags] name ...\` |`.
    const documented = (name: string) =>
      rows.some(
        (row) => row.startsWith(`| \`${name}`) && new RegExp(`\`engram (--\\S+ \\S+ )*${name}\\b`).test(row),
      );
    const missing = COMMANDS.filter((c) => !documented(c.name));
    expect(missing.map((c) => c.name)).toEqual([]);
  });

  it("prints one command's usage for --help and for help COMMAND", async () => {
    const a = await runCliCaptured(["search", "--help"]);
    const b = await runCliCaptured(["help", "search"]);
    expect(a.code).toBe(0);
    expect(a.stdout).toContain('Usage: engram search --user U "QUERY" [--k N]');
    expect(b.stdout).toBe(a.stdout);
  });

  it("answers help --json with one JSON document", async () => {
    const run = await runCliCaptured(["help", "--json"]);
    const doc = JSON.parse(run.stdout) as { commands: { name: string; usage: string }[] };
    expect(doc.commands.map((c) => c.name)).toContain("eval");
  });

  it("rejects no command, an unknown command and a command's own flag before the command as usage errors", async () => {
    const none = await runCliCaptured([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe("");
    const unknown = await runCliCaptured(["serach", "--user", "u"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('engram: unknown command "serach"; run engram help for the list\n');
    const flagFirst = await runCliCaptured(["--user", "u", "search", "q"]);
    expect(flagFirst.code).toBe(2);
    expect(flagFirst.stderr).toContain(
      "only --db, --qdrant-url, --json, --no-embed, --embedder, --embedder-url and --readonly may come before",
    );
    const noCommand = await runCliCaptured(["--db", "x.db"]);
    expect(noCommand.code).toBe(2);
    expect(noCommand.stderr).toBe("engram: missing command; run engram help for the list\n");
  });

  it("accepts the global flags before the command as after it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "engram-global-"));
    const db = join(dir, "e.db");
    const file = join(dir, "turns.jsonl");
    // A byte-order mark first, as Windows editors write UTF-8.
    writeFileSync(file, '\uFEFF{"role":"user","content":"I live in Rome"}\n');
    try {
      expect((await runCliCaptured(["--no-embed", "--db", db, "ingest", "--user", "u1", file])).code).toBe(0);
      const before = await runCliCaptured(["--db", db, "--json", "users"]);
      const after = await runCliCaptured(["users", "--json", `--db=${db}`]);
      expect(before.code).toBe(0);
      expect(JSON.parse(before.stdout)).toEqual({ users: ["u1"] });
      expect(after.stdout).toBe(before.stdout);
      expect((await runCliCaptured(["users", "--db", db])).stdout).toBe("u1\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("checks numbers and says what is allowed, negative ones included", async () => {
    for (const value of ["-1", "0", "2.5", "ten"]) {
      const run = await runCliCaptured(["search", "--user", "u", "q", "--k", value]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`engram search: bad --k "${value}": expected a whole number from 1 to 1000\n`);
    }
  });

  it("names an unknown flag, a flag missing its value and a missing required flag on one stderr line", async () => {
    const unknownFlag = await runCliCaptured(["stats", "--verbose"]);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toBe("engram stats: Unknown option '--verbose'\n");
    const noValue = await runCliCaptured(["list", "--user"]);
    expect(noValue.code).toBe(2);
    expect(noValue.stderr).toMatch(/^engram list: Option '--user <value>' argument missing\n$/);
    const missing = await runCliCaptured(["forget"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("engram forget: missing --user U (whose memory to erase)\n");
    const extra = await runCliCaptured(["search", "--user", "u", "two", "words"]);
    expect(extra.stderr).toBe('engram search: unexpected argument "words" (quote text that has spaces)\n');
  });

  it("refuses an unknown ENGRAM_EMBEDDER", async () => {
    const run = await runCliCaptured(["search", "--user", "u", "q", "--db", ":memory:"], {
      env: { ENGRAM_EMBEDDER: "gpt" },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'engram search: bad ENGRAM_EMBEDDER "gpt": expected offline, none, openai:MODEL, onnx:DIR (e.g. openai:text-embedding-3-small, onnx:./models/bge-small-en-v1.5)\n',
    );
  });
});
