import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MemoryRecord, MemoryVersion } from "@engram/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "../run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "engram-cli-memories-"));
const db = join(dir, "m.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => runCliCaptured([...args, "--db", db, "--no-embed"]);
const json = async <T>(...args: string[]): Promise<T> => {
  const run = await cli(...args, "--json");
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as T;
};

interface SearchJson {
  results: {
    id: string;
    text: string;
    score: number;
    relevance: number | null;
    tier: string;
    kind: string;
    at: string | null;
    channels: object;
  }[];
}

beforeAll(async () => {
  const lines = [
    { role: "user", content: "My sister Ines lives in Lisbon.", at: "2026-03-01T08:00:00Z" },
    { role: "assistant", content: "Lisbon is lovely in spring.", at: "2026-03-01T08:00:05Z" },
    { role: "user", content: "I am training for the Berlin marathon.", at: "2026-03-02T07:00:00Z" },
    { role: "user", content: "My dog is called Pixel." },
  ];
  const path = join(dir, "seed.jsonl");
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n"));
  expect((await cli("ingest", "--user", "ana", path)).code).toBe(0);
  expect((await cli("ingest", "--user", "ben", path)).code).toBe(0);
});

describe("engram search", () => {
  it("prints {results} best first with id, text, score, relevance, tier, kind, at and channels", async () => {
    const doc = await json<SearchJson>("search", "--user", "ana", "Where does Ines live?", "--k", "2");
    expect(Object.keys(doc)).toEqual(["results"]);
    expect(doc.results.length).toBeGreaterThan(0);
    expect(doc.results.length).toBeLessThanOrEqual(2);
    const [best] = doc.results;
    expect(best).toMatchObject({ text: "My sister Ines lives in Lisbon.", tier: "short", kind: "message" });
    expect(best?.at).toBe("2026-03-01T08:00:00.000Z");
    expect(Object.keys(best?.channels ?? {})).toEqual(["fulltext"]);
    expect(Object.keys(best ?? {}).sort()).toEqual([
      "at",
      "channels",
      "id",
      "kind",
      "relevance",
      "score",
      "text",
      "tier",
    ]);
    // Without vectors (--no-embed) the relevance is the share of the query's words the text holds:
    // "ines" and "live" (by stem), "where" and "does" being stopwords.
    expect(best?.relevance).toBe(1);
    const scores = doc.results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it("prints a table without --json", async () => {
    const run = await cli("search", "--user", "ana", "marathon");
    expect(run.stdout.split("\n")[0]).toMatch(/^#\s+score\s+relevance\s+tier\s+at\s+found by\s+id\s+text$/);
    expect(run.stdout).toContain("I am training for the Berlin marathon.");
  });

  it("refuses an unknown user, a bad --k and a store that does not exist", async () => {
    const unknown = await cli("search", "--user", "zoe", "Lisbon");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('engram search: unknown user "zoe": nothing is stored for this user\n');
    const badK = await cli("search", "--user", "ana", "Lisbon", "--k", "ten");
    expect(badK.code).toBe(2);
    expect(badK.stderr).toBe('engram search: bad --k "ten": expected a whole number from 1 to 1000\n');
    const noStore = await runCliCaptured(["search", "--user", "ana", "x", "--db", join(dir, "none.db")]);
    expect(noStore.code).toBe(1);
    expect(noStore.stderr).toContain(`no store at ${join(dir, "none.db")}`);
  });
});

describe("engram list / show / edit / delete", () => {
  it("lists a user's memories newest first, filtered by tier and kind, limited", async () => {
    const all = await json<{ userId: string; memories: MemoryRecord[] }>("list", "--user", "ana");
    expect(all.userId).toBe("ana");
    // Four turns, and four facts two of them state (sister.lives_in, sister.name, pet, pet.name).
    expect(all.memories).toHaveLength(8);
    expect(all.memories.every((m) => m.userId === "ana")).toBe(true);
    const limited = await json<{ memories: MemoryRecord[] }>(
      "list",
      "--user",
      "ana",
      "--limit",
      "2",
      "--tier",
      "short",
    );
    expect(limited.memories).toHaveLength(2);
    const long = await json<{ memories: MemoryRecord[] }>("list", "--user", "ana", "--tier", "long");
    expect(long.memories.map((m) => m.kind)).toEqual(["fact", "fact", "fact", "fact"]);
    const facts = await json<{ memories: MemoryRecord[] }>("list", "--user", "ana", "--kind", "fact");
    expect(facts.memories).toEqual(long.memories);
    const bad = await cli("list", "--user", "ana", "--kind", "note");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bad --kind "note": expected one of message, passage, page');
    expect((await cli("list", "--user", "zoe")).code).toBe(1);
  });

  it("edits a memory: the new text is current and both versions are in its history", async () => {
    const { memories } = await json<{ memories: MemoryRecord[] }>("list", "--user", "ana");
    const target = memories.find((m) => m.text.includes("Lisbon is lovely")) as MemoryRecord;
    const edited = await json<{ memory: MemoryRecord }>(
      "edit",
      target.id,
      "--user",
      "ana",
      "--text",
      "Lisbon is lovely in May.",
    );
    expect(edited.memory).toMatchObject({ id: target.id, text: "Lisbon is lovely in May.", version: 2 });
    const shown = await json<{ memory: MemoryRecord; history: MemoryVersion[] }>(
      "show",
      target.id,
      "--user",
      "ana",
    );
    expect(shown.memory.text).toBe("Lisbon is lovely in May.");
    expect(shown.history.map((h) => [h.version, h.event, h.text])).toEqual([
      [1, "create", "Lisbon is lovely in spring."],
      [2, "update", "Lisbon is lovely in May."],
    ]);
    const human = await cli("show", target.id, "--user", "ana");
    expect(human.stdout).toMatch(new RegExp(`^id\\s+${target.id}\\n`));
    expect(human.stdout).toMatch(/v2\s+update/);
    const search = await json<SearchJson>("search", "--user", "ana", "May");
    expect(search.results[0]?.id).toBe(target.id);
  });

  it("cannot show or edit another user's memory by id", async () => {
    const { memories } = await json<{ memories: MemoryRecord[] }>("list", "--user", "ana");
    const id = (memories[0] as MemoryRecord).id;
    const show = await cli("show", id, "--user", "ben");
    expect(show.code).toBe(1);
    expect(show.stderr).toBe(
      `engram show: no memory ${id} for user ben; list the user's memories to find valid ids\n`,
    );
    const edit = await cli("edit", id, "--user", "ben", "--text", "x");
    expect(edit.code).toBe(1);
    const noText = await cli("edit", id, "--user", "ana");
    expect(noText.code).toBe(2);
    expect(noText.stderr).toBe("engram edit: missing --text T (the new text)\n");
  });

  it("deletes a memory so it is neither listed nor found", async () => {
    const { memories } = await json<{ memories: MemoryRecord[] }>("list", "--user", "ben");
    const target = memories.find((m) => m.kind === "message" && m.text.includes("Pixel")) as MemoryRecord;
    expect(await json("delete", target.id, "--user", "ben")).toEqual({ deleted: target.id, userId: "ben" });
    const after = await json<{ memories: MemoryRecord[] }>("list", "--user", "ben");
    expect(after.memories.map((m) => m.id)).not.toContain(target.id);
    // The facts the turn stated ("The user has a dog named Pixel.") are memories of their own and stay.
    const found = (await json<SearchJson>("search", "--user", "ben", "Pixel")).results;
    expect(found.map((r) => [r.kind, r.text]).sort()).toEqual([
      ["fact", "The user has a dog named Pixel."],
      ["fact", "The user's dog is named Pixel."],
    ]);
    const again = await cli("delete", target.id, "--user", "ben");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no memory ${target.id} for user ben`);
  });
});
