import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { embeddingText, fullTextBody, searchText } from "../model/index.js";
import { testRecord } from "../testing/index.js";
import { createEngram } from "./create-engram.js";

const dir = mkdtempSync(join(tmpdir(), "engram-fact-keys-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SAID = "Big news: I moved to Lisbon last spring and I work as a nurse now.";

describe("fact keys: a turn indexed with the facts read from it", () => {
  it("are read from user and assistant turns with the option, and from none without it", async () => {
    for (const factKeys of [true, false]) {
      const engram = await createEngram({ path: ":memory:", embedder: null, tiers: false, factKeys });
      const { memories } = await engram.add({
        userId: "u",
        messages: [
          { role: "user", content: SAID },
          { role: "assistant", content: "I recommend the Gulbenkian museum in Lisbon." },
          { role: "user", content: "What time is it?" },
        ],
      });
      expect(memories.map((m) => m.metadata.factKeys)).toEqual(
        factKeys
          ? [
              ["The user moved to Lisbon.", "The user is a nurse."],
              ["The assistant recommended the Gulbenkian museum in Lisbon."],
              undefined,
            ]
          : [undefined, undefined, undefined],
      );
      const hits = await engram.search({ userId: "u", query: "nurse user", limit: 5 });
      expect(hits.map((h) => h.text).includes(SAID)).toBe(true);
      await engram.close();
    }
  });

  it("are searched in full text: a word found only in the key finds the turn", async () => {
    for (const factKeys of [true, false]) {
      const engram = await createEngram({ path: ":memory:", embedder: null, tiers: false, factKeys });
      await engram.add({
        userId: "u",
        messages: [{ role: "user", content: "I'm a vegetarian since March." }],
      });
      const [keys] = (await engram.memories.list({ userId: "u" })).map((m) => m.metadata.factKeys);
      expect(keys).toEqual(factKeys ? ["The user is vegetarian."] : undefined);
      // "user" is in the key alone.
      expect((await engram.search({ userId: "u", query: "user", limit: 3 })).length).toBe(factKeys ? 1 : 0);
      await engram.close();
    }
  });

  it("follow an edit of the text, and leave nothing in the index when the user is forgotten", async () => {
    const path = join(dir, "keys.db");
    const engram = await createEngram({ path, embedder: null, tiers: false, factKeys: true });
    const { memories } = await engram.add({ userId: "u", messages: [{ role: "user", content: SAID }] });
    const id = (memories[0] as { id: string }).id;
    const edited = await engram.memories.update({ userId: "u", id, text: "I work as a paramedic in Porto." });
    expect(edited?.metadata.factKeys).toEqual(["The user is a paramedic."]);
    const ids = async (query: string) =>
      (await engram.search({ userId: "u", query, limit: 5 })).map((h) => h.id);
    expect(await ids("nurse")).toEqual([]);
    expect(await ids("paramedic")).toEqual([id]);
    await engram.forget({ userId: "u" });
    await engram.close();
    // FTS5 without content deletes an entry by its exact tokens: any other body would leave postings.
    const db = new Database(path, { readonly: true });
    for (const word of ["paramedic", "porto", "user"]) {
      expect(
        db.prepare("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?").pluck().get(word),
      ).toBe(0);
    }
    db.close();
  });

  it("go into both channels' text once: the turn's body, not its passages'", () => {
    const record = testRecord("m", "u", "I live in Oslo.", {
      context: "assistant: Where do you live?",
      metadata: { factKeys: ["The user lives in Oslo."] },
    });
    expect(searchText(record)).toBe(
      "assistant: Where do you live?\nI live in Oslo.\nThe user lives in Oslo.",
    );
    expect(embeddingText(record)).toBe(
      "I live in Oslo.\nThe user lives in Oslo.\nassistant: Where do you live?",
    );
    expect(fullTextBody({ ...record, passages: 3 })).toBe("The user lives in Oslo.");
    expect(fullTextBody({ ...record, metadata: {}, passages: 3 })).toBe("");
  });
});
