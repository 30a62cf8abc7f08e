import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIo } from "./cli-io.js";
import { formatFields, formatTable, oneLine, terminalText } from "./cli-output.js";
import { say } from "./demo-format.js";
import { runCliCaptured } from "./run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "engram-cli-terminal-"));
const db = join(dir, "t.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => runCliCaptured([...args, "--db", db, "--no-embed"]);

// Clear the screen, set the window title, erase the line, back over a character, return to the line's
// start, an 8-bit CSI, DEL, a line separator and a right-to-left override: all stored as they were sent.
const HOSTILE =
  "Lisbon \u001b[2J\u001b]0;pwned\u0007 \u001b[2K\u001b[1Gsafe\b \rover \u009b31m\u007f\u2028x\u202Eevil";
// What a terminal would act on, in printed output: anything but newline, tab and CR before a newline.
const ACTS_ON_TERMINAL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting that none are left.
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]|\r(?!\n)/;

describe("terminalText", () => {
  it("shows escape sequences, C0 and C1 controls, separators and bidi controls as their escapes", () => {
    expect(terminalText("a\u001b[2Jb\u0007c\bd\re\u009bf\u007fg\u2028h\u202Ei")).toBe(
      "a\\u001b[2Jb\\u0007c\\u0008d\\re\\u009bf\\u007fg\\u2028h\\u202ei",
    );
  });

  it("keeps newlines, tabs and Windows line ends, and plain text of any script", () => {
    const text = "line one\tcolumn\r\nline two\nЛиссабон 里斯本 🐝";
    expect(terminalText(text)).toBe(text);
  });

  it("oneLine escapes newlines, CRs and tabs as well", () => {
    expect(oneLine("alice\nmallory\r\t\u001b")).toBe("alice\\nmallory\\r\\t\\u001b");
  });

  it("keeps a table row on one line and a field's further lines under its value", () => {
    expect(formatTable(["id", "text"], [["a\nb", "x\ty"]])).toBe("id    text\na\\nb  x\\ty");
    expect(
      formatFields([
        ["text", "one\nuser  mallory"],
        ["id", "7"],
      ]),
    ).toBe("text  one\n      user  mallory\nid    7");
  });

  it("leaves a JSON document valid and equal in value", () => {
    const value = { text: HOSTILE, nested: ["\u0085", "\u2029", "\u202D"] };
    const printed = terminalText(JSON.stringify(value, null, 2));
    expect(printed).not.toMatch(ACTS_ON_TERMINAL);
    expect(JSON.parse(printed)).toEqual(value);
  });

  it("is what the demo prints through", () => {
    const io = captureIo();
    say("title \u001b]0;pwned\u0007", io.stdout);
    expect(io.stdoutText()).toBe("title \\u001b]0;pwned\\u0007\n");
  });
});

describe("what the CLI prints", () => {
  let id: string;

  beforeAll(async () => {
    const path = join(dir, "hostile.jsonl");
    const line = { role: "user", content: HOSTILE, name: "Ana\u001b[31m", at: "2026-03-01T08:00:00Z" };
    writeFileSync(path, `${JSON.stringify(line)}\n`);
    expect((await cli("ingest", "--user", "ana", path)).code).toBe(0);
    const doc = JSON.parse((await cli("list", "--user", "ana", "--json")).stdout);
    id = doc.memories[0].id;
  });

  it("shows stored escape sequences escaped in every reading command, on stdout and stderr", async () => {
    const runs = await Promise.all([
      cli("search", "--user", "ana", "Lisbon"),
      cli("search", "--user", "ana", "zzqq \u001b[H"),
      cli("list", "--user", "ana"),
      cli("show", id, "--user", "ana"),
      cli("context", "--user", "ana", "Lisbon"),
      cli("profile", "--user", "ana"),
      cli("users"),
      cli("stats", "--user", "ana"),
      cli("export", "--user", "ana", "--out", join(dir, "ana.json")),
      cli("search", "--user", "zoe\u001b]0;x\u0007", "Lisbon"),
      cli("show", "id\u009b2J", "--user", "ana"),
    ]);
    for (const run of runs) {
      expect(run.stdout).not.toMatch(ACTS_ON_TERMINAL);
      expect(run.stderr).not.toMatch(ACTS_ON_TERMINAL);
    }
    const [search, miss, , show] = runs;
    expect(search?.stdout).toContain("Ana\\u001b[31m: Lisbon \\u001b[2J\\u001b]0;pwned\\u0007");
    expect(miss?.stdout).toContain('no memories match "zzqq \\u001b[H"');
    expect(show?.stdout).toContain("\\rover \\u009b31m\\u007f\\u2028x\\u202eevil");
    expect(runs[9]?.stderr).toContain("zoe\\u001b]0;x\\u0007");
  });

  it("keeps --json output valid, with the stored text unchanged once parsed", async () => {
    const search = await cli("search", "--user", "ana", "Lisbon", "--json");
    expect(search.stdout).not.toMatch(ACTS_ON_TERMINAL);
    expect(JSON.parse(search.stdout).results[0].text).toBe(HOSTILE);
    const show = await cli("show", id, "--user", "ana", "--json");
    expect(show.stdout).not.toMatch(ACTS_ON_TERMINAL);
    expect(JSON.parse(show.stdout).memory).toMatchObject({ text: HOSTILE, name: "Ana\u001b[31m" });
  });
});
