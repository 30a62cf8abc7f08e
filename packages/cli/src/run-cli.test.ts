import { describe, expect, it } from "vitest";
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

  it("rejects no command, an unknown command and a flag before the command as usage errors", async () => {
    const none = await runCliCaptured([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe("");
    const unknown = await runCliCaptured(["serach", "--user", "u"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('engram: unknown command "serach"; run engram help for the list\n');
    const flagFirst = await runCliCaptured(["--db", "x.db", "stats"]);
    expect(flagFirst.code).toBe(2);
    expect(flagFirst.stderr).toContain("put the command first");
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
    expect(run.stderr).toBe('engram search: bad ENGRAM_EMBEDDER "gpt": expected offline or none\n');
  });
});
