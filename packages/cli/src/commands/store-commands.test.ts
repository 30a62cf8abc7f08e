import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram } from "@engram/core";
import { storageOf, testRecord } from "@engram/core/testing";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { runCliCaptured } from "../run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "engram-cli-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let db: string;
let n = 0;
beforeEach(async () => {
  db = join(dir, `s${++n}.db`);
  const path = join(dir, `seed${n}.jsonl`);
  const lines = [
    { role: "user", content: "I play the cello in a quartet.", at: "2026-04-01T18:00:00Z" },
    { role: "assistant", content: "Which piece are you rehearsing?", at: "2026-04-01T18:00:04Z" },
    { role: "user", content: "Dvorak's American quartet.", at: "2026-04-01T18:01:00Z" },
  ];
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n"));
  expect((await run("ingest", "--user", "cara", path)).code).toBe(0);
});

// The three turns, and the fact the first one states ("The user plays cello.", derived_from it).
const SEEDED = { memories: 4, history: 4, edges: 1 };

const run = (...args: string[]) => runCliCaptured([...args, "--db", db, "--no-embed"]);
const json = async (...args: string[]) => {
  const r = await run(...args, "--json");
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout) as Record<string, unknown>;
};

describe("engram stats", () => {
  it("counts every memory of a user, and 0 for a user with nothing stored", async () => {
    const stats = await json("stats", "--user", "cara");
    expect(stats).toMatchObject({ ...SEEDED, byKind: { message: 3, fact: 1 }, userId: "cara" });
    expect(await json("stats", "--user", "nobody")).toMatchObject({ memories: 0, userId: "nobody" });
    expect(await json("stats")).toMatchObject({ memories: SEEDED.memories, users: 1 });
  });

  it("says there is no store at a mistyped path, as the other reading commands do, and creates none", async () => {
    const path = join(dir, "absent", "x.db");
    for (const args of [["stats"], ["stats", "--user", "u", "--json"], ["stats", "--readonly"]]) {
      const r = await runCliCaptured([...args, "--db", path]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(
        `engram stats: no store at ${path}; pass --db PATH (or set ENGRAM_DB), or ingest something first\n`,
      );
    }
    expect(existsSync(join(dir, "absent"))).toBe(false);
  });

  it("reads the store from ENGRAM_DB when --db is absent", async () => {
    const r = await runCliCaptured(["stats", "--json"], { env: { ENGRAM_DB: db } });
    expect(JSON.parse(r.stdout)).toMatchObject({ memories: SEEDED.memories });
  });

  it("prints aligned fields without --json", async () => {
    const r = await run("stats", "--user", "cara");
    expect(r.stdout).toMatch(/^store\s+.+\nuser\s+cara\nmemories\s+4\nby kind\s+fact 1, message 3\n/);
  });
});

describe("a store that does not exist", () => {
  it.each([
    ["search", "--user", "u", "q"],
    ["context", "--user", "u", "q"],
    ["profile", "--user", "u"],
    ["users"],
    ["list", "--user", "u"],
    ["show", "m1", "--user", "u"],
    ["export", "--user", "u"],
    ["skills", "list", "--user", "u"],
    ["skills", "traces", "--user", "u"],
    ["skills", "feedback", "s1", "always ask first", "--user", "u"],
    ["skills", "delete", "s1", "--user", "u"],
    ["edit", "m1", "--user", "u", "--text", "t"],
    ["delete", "m1", "--user", "u"],
    ["forget", "--user", "u"],
  ])("engram %s ... says so, prints nothing and creates no file", async (...args) => {
    const folder = join(dir, `missing-${args.join("-").replace(/\W/g, "")}`);
    const r = await runCliCaptured([...args, "--db", join(folder, "x.db"), "--no-embed"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^engram \w+: no store at /);
    expect(existsSync(folder)).toBe(false);
  });
});

describe("engram export / import", () => {
  it("round-trips a user into a fresh store: same memories, history and search results", async () => {
    const dump = await run("export", "--user", "cara");
    expect(dump.code).toBe(0);
    const doc = JSON.parse(dump.stdout) as { format: string; userId: string; memories: unknown[] };
    expect(doc).toMatchObject({ format: "engram.export", userId: "cara" });
    expect(doc.memories).toHaveLength(SEEDED.memories);
    const file = join(dir, "cara.json");
    writeFileSync(file, dump.stdout);
    const fresh = join(dir, `fresh${n}.db`);
    const imported = await runCliCaptured(["import", file, "--db", fresh, "--no-embed", "--json"]);
    expect(JSON.parse(imported.stdout)).toEqual({ userId: "cara", memories: SEEDED.memories, reembedded: 0 });
    const listOf = async (path: string) =>
      JSON.parse(
        (await runCliCaptured(["list", "--user", "cara", "--json", "--db", path, "--no-embed"])).stdout,
      );
    expect(await listOf(fresh)).toEqual(await listOf(db));
    const search = await runCliCaptured([
      "search",
      "--user",
      "cara",
      "Dvorak",
      "--json",
      "--db",
      fresh,
      "--no-embed",
    ]);
    expect((JSON.parse(search.stdout) as { results: { text: string }[] }).results[0]?.text).toBe(
      "Dvorak's American quartet.",
    );
    const stats = await runCliCaptured(["stats", "--user", "cara", "--json", "--db", fresh]);
    expect(JSON.parse(stats.stdout)).toMatchObject({ memories: SEEDED.memories, history: SEEDED.history });
  });

  it("writes the dump to --out and prints a summary", async () => {
    const out = join(dir, "out", `cara${n}.json`);
    const summary = await json("export", "--user", "cara", "--out", out);
    expect(summary).toEqual({ userId: "cara", out, memories: SEEDED.memories, history: SEEDED.history });
    expect(JSON.parse(readFileSync(out, "utf8"))).toMatchObject({ userId: "cara" });
  });

  it("refuses to export an unknown user, and to import a file that is not a dump", async () => {
    const unknown = await run("export", "--user", "zed");
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toBe('engram export: unknown user "zed": nothing is stored for this user\n');
    const notJson = join(dir, "notjson.json");
    writeFileSync(notJson, "{oops");
    const a = await run("import", notJson);
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/^engram import: .*notjson\.json is not valid JSON \(.+\)\n$/);
    const notDump = join(dir, "notdump.json");
    writeFileSync(notDump, JSON.stringify({ format: "other" }));
    const b = await run("import", notDump);
    expect(b.code).toBe(1);
    expect(b.stderr).toContain('expected format "engram.export"');
    expect((await run("import", join(dir, "missing.json"))).stderr).toContain("no such file");
  });
});

describe("engram forget", () => {
  it("removes every memory of the user and reports the counts; the user is then unknown", async () => {
    expect(await json("forget", "--user", "cara")).toEqual({
      userId: "cara",
      removed: { ...SEEDED, kv: 0, jobs: 1 },
      erasure: { state: "erased" },
    });
    expect(await json("stats", "--user", "cara")).toMatchObject({ memories: 0, history: 0 });
    expect((await run("search", "--user", "cara", "cello")).code).toBe(1);
    const again = await run("forget", "--user", "cara");
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(
      "forgot user cara: removed 0 memories, 0 history rows, 0 edges, 0 key-value entries, 0 jobs; erased from disk\n",
    );
  });
  it("lists and forgets a user stored with a control character in its id, which ingest now refuses", async () => {
    // Stored as a store written before ids were checked holds them: past the engine, straight into storage.
    const engram = await createEngram({ path: db, embedder: null, background: false });
    for (const legacy of ["alice\nmallory", "eve\u001b[2K\u001b[1Gbob"]) {
      const record = testRecord(`m-${legacy.length}`, legacy, "hello");
      await storageOf(engram).write({ userId: legacy }, { upsert: [{ record, vector: null }] });
    }
    await engram.close();
    // One line per user, each id as it is: neither split in two nor disguised as another.
    expect((await run("users")).stdout).toBe("alice\\nmallory\ncara\neve\\u001b[2K\\u001b[1Gbob\n");
    const file = join(dir, "one.jsonl");
    writeFileSync(file, `${JSON.stringify({ role: "user", content: "hi" })}\n`);
    const refused = await run("ingest", "--user", "alice\nmallory", file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      "engram ingest: userId: must not hold control characters, line separators or bidi controls " +
        "(U+000A at index 5)\n",
    );
    expect((await run("forget", "--user", "alice\nmallory")).stdout).toMatch(
      /^forgot user alice\\nmallory: removed 1 memories/,
    );
    expect((await run("forget", "--user", "eve\u001b[2K\u001b[1Gbob")).stdout).toMatch(/removed 1 memories/);
    expect(await json("users")).toEqual({ users: ["cara"] });
  });
});
