import { describe, expect, it } from "vitest";
import { parseJsonl } from "./read-jsonl.js";

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

  it("keeps a line's own id, and names its session `session`", () => {
    const [first] = parseJsonl(JSON.stringify({ role: "user", content: "a", id: "turn-1", session: "s1" }));
    expect(first).toMatchObject({ id: "turn-1", session: "s1" });
    const [second] = parseJsonl(JSON.stringify({ role: "user", content: "a", sessionId: "s1" }));
    expect(second).not.toHaveProperty("sessionId");
  });
});
