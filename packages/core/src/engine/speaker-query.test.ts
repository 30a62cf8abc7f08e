import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sequentialIds } from "../model/index.js";
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

/** A two-person chat; `embedded` collects every text the embedder is given. */
async function chat(retrieval: RetrievalOptions = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-speaker-query-"));
  dirs.push(dir);
  const embedded: string[] = [];
  const engram = await createEngram({
    path: path.join(dir, "e.db"),
    embedder: hashEmbeddingModel({ dimensions: 256, onCall: (values) => embedded.push(...values) }),
    tiers: false,
    background: false,
    contextWindow: false,
    ids: sequentialIds(),
    retrieval,
  });
  open.push(engram);
  await engram.add({
    userId: "u",
    messages: [
      { role: "user", name: "Caroline", content: "Hey Melanie, how was your weekend?" },
      { role: "assistant", name: "Melanie", content: "We went camping by the lake, the kids loved it" },
      { role: "user", name: "Caroline", content: "Melanie, that sounds lovely" },
      { role: "assistant", name: "Melanie", content: "I also started a pottery class on Tuesdays" },
    ],
  });
  embedded.length = 0;
  return { engram, embedded };
}

describe("the speaker's query", () => {
  it("embeds a query naming one speaker in that speaker's words, and searches full-text without the name", async () => {
    const { engram, embedded } = await chat();
    const hits = await engram.search({ userId: "u", query: "What does Melanie do on weekends?", limit: 10 });
    expect(embedded).toEqual(["What does I do on weekends?"]);
    // Only Caroline's turns say "Melanie": full-text no longer lists them for the name alone.
    const byText = hits.filter((h) => h.channels.fulltext).map((h) => h.text);
    expect(byText).toEqual(["Hey Melanie, how was your weekend?"]);
    expect(hits[0]?.memory.name).toBe("Melanie");
  });

  it("does the same for retrieve, whose context still names the speakers", async () => {
    const { engram, embedded } = await chat();
    const context = await engram.retrieve({ userId: "u", query: "What class did Melanie start?" });
    expect(embedded).toEqual(["What class did I start?"]);
    expect(context.text).toContain("Melanie: I also started a pottery class on Tuesdays");
  });

  it("leaves the query as written when the switch or the speaker prior is off", async () => {
    for (const retrieval of [{ speakerQuery: false }, { speakerPrior: 0 }]) {
      const { engram, embedded } = await chat(retrieval);
      const hits = await engram.search({
        userId: "u",
        query: "What does Melanie do on weekends?",
        limit: 10,
      });
      expect(embedded).toEqual(["What does Melanie do on weekends?"]);
      expect(hits.filter((h) => h.channels.fulltext).map((h) => h.text)).toContain(
        "Melanie, that sounds lovely",
      );
    }
  });
});
