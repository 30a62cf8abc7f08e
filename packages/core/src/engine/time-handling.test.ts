import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RetrievalOptions } from "../retrieval/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import { createEngram } from "./create-engram.js";
import type { Engram } from "./engram.js";

const dirs: string[] = [];
const open: Engram[] = [];
afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function store(retrieval: RetrievalOptions = {}): Promise<Engram> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-time-"));
  dirs.push(dir);
  const engram = await createEngram({
    path: path.join(dir, "e.db"),
    embedder: hashEmbeddingModel({ dimensions: 256 }),
    tiers: false,
    background: false,
    contextWindow: false,
    clock: () => new Date("2024-01-15T09:00:00Z"),
    retrieval: { feedback: 0, rerank: false, ...retrieval },
  });
  open.push(engram);
  await engram.add({
    userId: "u",
    messages: [
      // Said first, and the better text match for "support group": without the prior it ranks first.
      {
        role: "user",
        content: "The support group talked about the support group itself",
        at: "2023-05-01T10:00:00Z",
      },
      { role: "user", content: "I went to a support group yesterday", at: "2023-05-08T14:00:00Z" },
      { role: "user", content: "I adopted a cat named Luna", at: "2023-08-20T10:00:00Z" },
      { role: "user", content: "Luna likes the window seat", at: "2022-03-02T10:00:00Z" },
    ],
  });
  return engram;
}

describe("time handling", () => {
  it("stores a turn's relative dates resolved against when it was said", async () => {
    const engram = await store();
    const [hit] = await engram.search({ userId: "u", query: "support group yesterday", limit: 1 });
    expect(hit?.memory.metadata.times).toEqual([{ text: "yesterday", date: "2023-05-07" }]);
  });

  it("ranks the turn that dates an event first for a when-question", async () => {
    const asked = { userId: "u", query: "When did I go to the support group?", limit: 2 };
    const on = await store();
    expect((await on.search(asked))[0]?.text).toBe("I went to a support group yesterday");
    const off = await store({ whenPrior: 0, updatePrior: false });
    expect((await off.search(asked))[0]?.text).toBe(
      "The support group talked about the support group itself",
    );
  });

  it("lifts turns said in the span a query names", async () => {
    const engram = await store({ whenPrior: 0, rangePrior: 5 });
    const hits = await engram.search({ userId: "u", query: "What about Luna in 2023?", limit: 2 });
    expect(hits[0]?.text).toBe("I adopted a cat named Luna");
    const plain = await store({ whenPrior: 0, rangePrior: 0 });
    const unboosted = await plain.search({ userId: "u", query: "What about Luna in 2023?", limit: 2 });
    expect(unboosted.map((h) => h.text)).toContain("Luna likes the window seat");
  });

  it("finds a turn said in the named span even when 80 others match the words better", async () => {
    const messages = [
      ...Array.from({ length: 80 }, (_, i) => ({
        role: "user" as const,
        content: `The garden party with the garden band and garden lights, number ${i}`,
        at: `2022-0${1 + (i % 9)}-1${i % 10}T10:00:00Z`,
      })),
      { role: "user" as const, content: "A small party at home", at: "2023-10-13T18:00:00Z" },
    ];
    const query = { userId: "w", query: "What happened at the garden party on October 13, 2023?", limit: 5 };
    const texts = async (retrieval: RetrievalOptions) => {
      const engram = await store(retrieval);
      await engram.add({ userId: "w", messages });
      return (await engram.search(query)).map((h) => h.text);
    };
    expect(await texts({ whenPrior: 0 })).toContain("A small party at home");
    expect(await texts({ whenPrior: 0, rangePrior: 0 })).not.toContain("A small party at home");
  });

  it("shows the resolved date after the turn in the context, unless switched off", async () => {
    for (const recentTurns of [0, 6]) {
      const on = await store({ recentTurns });
      const context = await on.retrieve({ userId: "u", query: "support group", budgetTokens: 500 });
      expect(context.text).toContain("I went to a support group yesterday (yesterday = 7 May 2023)");
    }
    const off = await store({ timeNotes: false });
    const plain = await off.retrieve({ userId: "u", query: "support group", budgetTokens: 500 });
    expect(plain.text).toContain("I went to a support group yesterday");
    expect(plain.text).not.toContain("= 7 May 2023");
  });

  it("keeps time metadata the caller set", async () => {
    const engram = await store();
    await engram.add({
      userId: "v",
      messages: [{ role: "user", content: "See you tomorrow", metadata: { times: "mine" } }],
    });
    const [hit] = await engram.search({ userId: "v", query: "tomorrow", limit: 1 });
    expect(hit?.memory.metadata.times).toBe("mine");
  });
});
