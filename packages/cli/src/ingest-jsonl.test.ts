import { createEngram, type Engram } from "@engram/core";
import { describe, expect, it } from "vitest";
import { ingestJsonl } from "./ingest-jsonl.js";
import { parseJsonl } from "./read-jsonl.js";

const text = [
  { role: "user", content: "first session, first turn", session: "a" },
  { role: "assistant", content: "first session, second turn", session: "a" },
  { role: "user", content: "second session", session: "b" },
]
  .map((l) => JSON.stringify(l))
  .join("\n");

describe("ingestJsonl", () => {
  it("adds one batch per session and reports progress", async () => {
    const engram = await createEngram({ path: ":memory:", embedder: null });
    const progress: [number, number][] = [];
    const result = await ingestJsonl(engram, "u", parseJsonl(text), (d, t) => progress.push([d, t]));
    expect(result).toEqual({ userId: "u", memories: 3, pending: 0 });
    expect(progress).toEqual([
      [2, 3],
      [3, 3],
    ]);
    await engram.close();
  });

  it("removes the batches it already wrote when a later one fails", async () => {
    const engram = await createEngram({ path: ":memory:", embedder: null });
    let calls = 0;
    const failing = new Proxy(engram, {
      get(target, key, receiver) {
        if (key !== "add") return Reflect.get(target, key, receiver);
        return (input: Parameters<Engram["add"]>[0]) => {
          if (++calls === 2) throw new Error("disk full");
          return target.add(input);
        };
      },
    });
    await expect(ingestJsonl(failing, "u", parseJsonl(text), () => {})).rejects.toThrow("disk full");
    expect(calls).toBe(2);
    expect((await engram.stats({ userId: "u" })).memories).toBe(0);
    expect((await engram.stats({ userId: "u" })).history).toBe(0);
    await engram.close();
  });
});
