import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sequentialIds } from "../model/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import { createEngram } from "./create-engram.js";
import type { Engram } from "./engram.js";

const dirs: string[] = [];
const open: Engram[] = [];
afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function store(feedback: number): Promise<Engram> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-feedback-"));
  dirs.push(dir);
  const engram = await createEngram({
    path: path.join(dir, "e.db"),
    embedder: hashEmbeddingModel({ dimensions: 512 }),
    tiers: false,
    background: false,
    contextWindow: false,
    ids: sequentialIds(),
    retrieval: { feedback, rerank: false, speakerPrior: 0, contentPrior: 0 },
  });
  open.push(engram);
  await engram.add({
    userId: "u",
    messages: [
      { role: "user", content: "My pottery class made ceramic mugs at the studio" },
      { role: "user", content: "Pottery again tonight: more ceramic mugs, the studio was busy" },
      { role: "user", content: "Flights to Oslo are booked for March" },
      { role: "user", content: "Glaze cracked in the kiln but the ceramic mugs and studio survived" },
      { role: "user", content: "Coffee tastes better in the morning sun" },
      { role: "user", content: "Our neighbour has a loud red motorbike" },
      { role: "user", content: "I finished reading a novel about sailors" },
      { role: "user", content: "My sister visits next weekend with her kids" },
      { role: "user", content: "The train was late again this Tuesday" },
      { role: "user", content: "We planted tomatoes and basil in the garden" },
      { role: "user", content: "Running five kilometres felt easy today" },
    ],
  });
  return engram;
}

describe("pseudo-relevance feedback in retrieve", () => {
  it("reaches a turn about the same thing that shares no word with the query", async () => {
    const rank = async (feedback: number) => {
      const engram = await store(feedback);
      const { pages } = await engram.retrieve({ userId: "u", query: "pottery", budgetTokens: 1500 });
      return pages.map((p) => p.text).findIndex((t) => t.includes("kiln"));
    };
    // The best hits (the pottery evenings) pull the query toward ceramic mugs and the studio.
    expect(await rank(1)).toBe(2);
    expect(await rank(0)).toBeGreaterThan(2);
  });

  it("leaves engram.search as it was: feedback is for filling the context", async () => {
    const engram = await store(1);
    const hits = await engram.search({ userId: "u", query: "pottery", limit: 20 });
    expect(hits.findIndex((h) => h.text.includes("kiln"))).toBeGreaterThan(2);
  });
});
