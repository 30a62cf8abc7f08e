import { describe, expect, it } from "vitest";
import { batchBySession, parseJsonl } from "./read-jsonl.js";

const line = (content: string, session?: string) =>
  JSON.stringify({ role: "user", content, ...(session ? { session } : {}) });

describe("parseJsonl", () => {
  it("keeps each message's 1-based line number, skipping blank lines and CRLF endings", () => {
    const lines = parseJsonl(`${line("a")}\r\n\r\n${line("b")}\r\n`);
    expect(lines.map((l) => [l.line, l.content])).toEqual([
      [1, "a"],
      [3, "b"],
    ]);
  });
});

describe("batchBySession", () => {
  it("groups consecutive lines of one session and splits long runs", () => {
    const lines = parseJsonl(
      [line("a", "s1"), line("b", "s1"), line("c"), line("d", "s1"), line("e", "s1")].join("\n"),
    );
    const batches = batchBySession(lines, 1000).map((b) => b.map((l) => l.content).join(""));
    expect(batches).toEqual(["ab", "c", "de"]);
    expect(batchBySession(lines, 1).map((b) => b.length)).toEqual([1, 1, 1, 1, 1]);
  });
});
