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
