import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_MESSAGE_BYTES } from "@engram/core";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "./cli-error.js";
import { readIngestFile, readLines } from "./read-ingest-file.js";
import { runCliCaptured } from "./run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "engram-cli-read-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function* chunks(...parts: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === "string" ? Buffer.from(part) : part;
}

async function collect(source: AsyncIterable<Uint8Array>, max?: number) {
  const out: [number, string][] = [];
  for await (const { line, text } of readLines(source, max)) out.push([line, text]);
  return out;
}

describe("readLines", () => {
  it("joins lines split across chunks, drops CRLF endings and keeps a last line without a newline", async () => {
    const euro = Buffer.from("€");
    const lines = await collect(chunks("one\r\ntw", "o\n\nthr", euro.subarray(0, 1), euro.subarray(1), "ee"));
    expect(lines).toEqual([
      [1, "one"],
      [2, "two"],
      [3, ""],
      [4, "thr€ee"],
    ]);
  });

  it("refuses an over-long line as soon as it passes the limit, without reading the rest", async () => {
    let read = 0;
    async function* endless(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('{"ok": 1}\n');
      for (;;) {
        read += 1024;
        yield Buffer.alloc(1024, 0x61);
      }
    }
    const error = await collect(endless(), 10_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(/^line 2 is longer than 10,000 bytes/);
    expect(read).toBeLessThanOrEqual(11 * 1024);
  });
});

describe("the encoding of an ingest file", () => {
  const db = join(dir, "enc.db");
  const cli = (...args: string[]) => runCliCaptured([...args, "--db", db, "--no-embed"]);
  const line = (content: string) => `${JSON.stringify({ role: "user", content })}\n`;

  it("refuses bytes that are not UTF-8 with one line naming the file, line and offset, storing nothing", async () => {
    const seed = join(dir, "seed.jsonl");
    writeFileSync(seed, line("I grow tomatoes."));
    expect((await cli("ingest", "--user", "u", seed)).code).toBe(0);
    const before = (await cli("stats", "--json")).stdout;
    const first = Buffer.from(line("Lisbon in spring"));
    // Line 2: "caf" then a Latin-1 é (0xE9), as a file saved in Windows-1252 holds it.
    const second = Buffer.concat([
      Buffer.from('{"role": "user", "content": "caf'),
      Buffer.from([0xe9, 0x22, 0x7d]),
    ]);
    const file = join(dir, "latin1.jsonl");
    writeFileSync(file, Buffer.concat([first, second, Buffer.from("\n")]));
    const run = await cli("ingest", "--user", "u", file);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `engram ingest: ${file}: not valid UTF-8 at line 2, byte offset ${first.length + second.indexOf(0xe9)} (0xe9); ` +
        "save the file as UTF-8\n",
    );
    expect((await cli("stats", "--json")).stdout).toBe(before);
  });

  it("finds the bad byte's line and offset in a line read in several chunks, and in a LoCoMo file", async () => {
    const bad = Buffer.from([0x61, 0xed, 0xa0, 0x80]); // an encoded surrogate: not UTF-8
    const read = async () => {
      for await (const _ of readLines(chunks("ok\nx", bad.subarray(0, 2), bad.subarray(2)), 100, "f.jsonl"));
    };
    await expect(read()).rejects.toThrow(
      "f.jsonl: not valid UTF-8 at line 2, byte offset 5 (0xed); save the file as UTF-8",
    );
    const locomo = join(dir, "bad-locomo.json");
    writeFileSync(
      locomo,
      Buffer.concat([Buffer.from('[\n {"sample_id": "'), Buffer.from([0xff]), Buffer.from('"}]')]),
    );
    await expect(readIngestFile(locomo)).rejects.toThrow(
      `${locomo}: not valid UTF-8 at line 2, byte offset 18 (0xff)`,
    );
  });

  it.each([
    ["UTF-16LE with a byte-order mark", "utf16le", true],
    ["UTF-16LE without one", "utf16le", false],
    ["UTF-16BE with a byte-order mark", "utf16be", true],
    ["UTF-16BE without one", "utf16be", false],
  ] as const)(
    "says a file in %s is UTF-16, with no raw bytes in the message",
    async (_label, encoding, bom) => {
      const text = `${bom ? "\uFEFF" : ""}${line("I live in Rome")}`;
      const le = Buffer.from(text, "utf16le");
      // Node has no big-endian UTF-16 encoder: swap each pair.
      const bytes = encoding === "utf16le" ? le : Buffer.from(le).swap16();
      const file = join(dir, `${encoding}-${bom}.jsonl`);
      writeFileSync(file, bytes);
      const run = await cli("ingest", "--user", "u", file);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `engram ingest: ${file}: the file is UTF-16; convert it to UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)\n`,
      );
      // A LoCoMo array in UTF-16, and an export to import, the same.
      const array = join(dir, `${encoding}-${bom}.json`);
      writeFileSync(array, Buffer.from(`${bom ? "\uFEFF" : ""}[{"sample_id": "c1"}]`, "utf16le"));
      expect((await cli("ingest", array)).stderr).toContain("the file is UTF-16; convert it to UTF-8");
      expect((await cli("import", array)).stderr).toContain("the file is UTF-16; convert it to UTF-8");
    },
  );

  it("accepts a UTF-8 byte-order mark, and U+FFFD written as UTF-8, as text", async () => {
    const file = join(dir, "bom.jsonl");
    writeFileSync(file, `\uFEFF${line("first \uFFFD replacement")}${line("second")}`);
    expect(await readIngestFile(file)).toMatchObject({
      format: "jsonl",
      lines: [
        { line: 1, content: "first \uFFFD replacement" },
        { line: 2, content: "second" },
      ],
    });
  });
});

describe("reading an ingest file", () => {
  it("tells JSONL from a LoCoMo array by the first character", async () => {
    const jsonl = join(dir, "a.jsonl");
    writeFileSync(jsonl, `\n  ${JSON.stringify({ role: "user", content: "hi" })}\n`);
    expect(await readIngestFile(jsonl)).toMatchObject({
      format: "jsonl",
      lines: [{ line: 2, content: "hi" }],
    });
    const locomo = join(dir, "b.json");
    writeFileSync(locomo, "  [1]");
    await expect(readIngestFile(locomo)).rejects.toThrow("not a LoCoMo file");
  });

  it("refuses a 5 MB message with the limit and its size, and stores nothing", async () => {
    const db = join(dir, "five.db");
    const cli = (...args: string[]) => runCliCaptured([...args, "--db", db, "--no-embed"]);
    const small = join(dir, "small.jsonl");
    writeFileSync(small, `${JSON.stringify({ role: "user", content: "I grow tomatoes." })}\n`);
    expect((await cli("ingest", "--user", "u", small)).code).toBe(0);
    const before = (await cli("stats", "--json")).stdout;
    const big = join(dir, "big.jsonl");
    const huge = { role: "user", content: "z".repeat(5 * 1024 * 1024) };
    writeFileSync(big, `${JSON.stringify({ role: "user", content: "first" })}\n${JSON.stringify(huge)}\n`);
    const run = await cli("ingest", "--user", "u", big);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("line 2: content: 5,242,880 bytes of UTF-8 text");
    expect(run.stderr).toContain(`limit of ${MAX_MESSAGE_BYTES.toLocaleString("en-US")} bytes`);
    expect((await cli("stats", "--json")).stdout).toBe(before);
  });
});
