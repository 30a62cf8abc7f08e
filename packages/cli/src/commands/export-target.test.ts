import {
  closeSync,
  linkSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { runCliCaptured } from "../run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "engram-cli-export-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let db: string;
let n = 0;
beforeEach(async () => {
  db = join(dir, `s${++n}.db`);
  const path = join(dir, `seed${n}.jsonl`);
  const lines = [
    { role: "user", content: "I play the cello in a quartet.", at: "2026-04-01T18:00:00Z" },
    { role: "assistant", content: "Which piece are you rehearsing?", at: "2026-04-01T18:00:04Z" },
  ];
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n"));
  expect((await run("ingest", "--user", "cara", path)).code).toBe(0);
  expect((await run("ingest", "--user", "dan", path)).code).toBe(0);
});

const run = (...args: string[]) => runCliCaptured([...args, "--db", db, "--no-embed"]);

/** Both users are still there, with their turns: the store was not touched. */
async function expectStoreIntact(): Promise<void> {
  const users = await run("users", "--json");
  expect(users.code).toBe(0);
  expect(JSON.stringify(JSON.parse(users.stdout))).toMatch(/cara.*dan|dan.*cara/);
  const search = await run("search", "--user", "dan", "cello", "--json");
  expect(search.code).toBe(0);
}

describe("engram export --out: never onto the store, never over a file it did not write", () => {
  it("refuses the store itself, its -wal and -shm files, a symlink and a hard link to it", async () => {
    const link = join(dir, `link${n}.db`);
    symlinkSync(db, link);
    const hard = join(dir, `hard${n}.db`);
    linkSync(db, hard);
    for (const out of [db, `${db}-wal`, `${db}-shm`, link, hard, `${db}-vectors/x.json`]) {
      for (const force of [[], ["--force"]]) {
        const r = await run("export", "--user", "cara", "--out", out, ...force);
        expect(r.code, out).toBe(2);
        expect(r.stderr, out).toMatch(/^engram export: --out .* (is the store|is inside the store)/);
      }
    }
    await expectStoreIntact();
  });

  it("refuses an existing file that export did not write, unless --force; replaces an earlier export", async () => {
    const notes = join(dir, `notes${n}.txt`);
    writeFileSync(notes, "my notes\n");
    const refused = await run("export", "--user", "cara", "--out", notes);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `engram export: --out ${notes} exists and was not written by engram export; pass --force to replace it\n`,
    );
    expect(readFileSync(notes, "utf8")).toBe("my notes\n");

    const out = join(dir, `cara${n}.json`);
    expect((await run("export", "--user", "cara", "--out", out)).code).toBe(0);
    expect((await run("export", "--user", "dan", "--out", out)).code).toBe(0);
    expect(JSON.parse(readFileSync(out, "utf8"))).toMatchObject({ format: "engram.export", userId: "dan" });

    expect((await run("export", "--user", "cara", "--out", notes, "--force")).code).toBe(0);
    expect(JSON.parse(readFileSync(notes, "utf8"))).toMatchObject({ userId: "cara" });
    // Written beside the target and renamed: no temporary file is left behind.
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    await expectStoreIntact();
  });

  it("writes a new file and renames it over the old export: a reader holding the old one keeps it whole", async () => {
    const out = join(dir, `renamed${n}.json`);
    expect((await run("export", "--user", "cara", "--out", out)).code).toBe(0);
    const before = statSync(out).ino;
    // A reader that opened the earlier export, as a backup job or an editor would.
    const fd = openSync(out, "r");
    try {
      expect((await run("export", "--user", "dan", "--out", out)).code).toBe(0);
      // Written in place, the open file would now hold dan's dump, or part of it.
      expect(JSON.parse(readFileSync(fd, "utf8"))).toMatchObject({ format: "engram.export", userId: "cara" });
    } finally {
      closeSync(fd);
    }
    expect(statSync(out).ino).not.toBe(before);
    expect(JSON.parse(readFileSync(out, "utf8"))).toMatchObject({ format: "engram.export", userId: "dan" });
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("refuses a folder", async () => {
    const r = await run("export", "--user", "cara", "--out", dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`engram export: --out ${dir} is a folder; name a file\n`);
  });
});
