import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hashEmbeddingModel } from "../testing/index.js";
import { createEngram } from "./create-engram.js";
import type { Engram } from "./engram.js";

describe("context of the following turn", () => {
  let dir: string;
  let engram: Engram;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "engram-relink-"));
    engram = await createEngram({ path: join(dir, "e.db"), embedder: hashEmbeddingModel(), tiers: false });
  });
  afterEach(async () => {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function threeTurns() {
    const { ids } = await engram.add({
      userId: "u",
      sessionId: "s",
      messages: [
        { role: "user", content: "My dog is called Quibblewick." },
        { role: "assistant", content: "What a name!" },
        { role: "user", content: "He is six." },
      ],
    });
    return ids as [string, string, string];
  }

  it("follows an update of the turn before it, so the old wording is not searchable", async () => {
    const [first, second] = await threeTurns();
    await engram.memories.update({ userId: "u", id: first, text: "My dog is called Biscuit." });
    const next = await engram.memories.get({ userId: "u", id: second });
    expect(next.context).toBe("user: My dog is called Biscuit.");
    const hits = await engram.search({ userId: "u", query: "Quibblewick", limit: 5, channels: ["fulltext"] });
    expect(hits).toEqual([]);
  });

  it("takes over the deleted turn's own context on delete", async () => {
    const [first, second, third] = await threeTurns();
    await engram.memories.delete({ userId: "u", id: second });
    const last = await engram.memories.get({ userId: "u", id: third });
    expect(last.context).toBe("user: My dog is called Quibblewick.");
    await engram.memories.delete({ userId: "u", id: first });
    expect((await engram.memories.get({ userId: "u", id: third })).context).toBeNull();
    const hits = await engram.search({ userId: "u", query: "Quibblewick", limit: 5, channels: ["fulltext"] });
    expect(hits).toEqual([]);
  });
});
