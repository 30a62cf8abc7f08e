import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Embedder } from "../ai/index.js";
import { EmbedderMismatchError, EngramError, ModelError } from "../errors/index.js";
import { embeddingText } from "../model/index.js";
import { storageOf } from "../testing.js";
import { createEngram } from "./create-engram.js";
import type { Engram } from "./engram.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/**
 * A bag-of-words embedder. `synonyms` maps words onto one meaning, so "feline" finds "cat" only with
 * an embedder that knows they are alike, which full text and the other embedder do not.
 */
function wordsEmbedder(
  id: string,
  n: number,
  synonyms: Record<string, string> = {},
): Embedder & {
  calls: number;
} {
  const self = {
    id,
    calls: 0,
    async embed(texts: readonly string[]) {
      self.calls++;
      return texts.map((text) => {
        const v = new Float32Array(n);
        for (const raw of text.toLowerCase().match(/[a-z]+/g) ?? []) {
          const word = synonyms[raw] ?? raw;
          let h = 7;
          for (const ch of word) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
          v[h % n] = (v[h % n] ?? 0) + 1;
        }
        const norm = Math.hypot(...v) || 1;
        return v.map((x) => x / norm);
      });
    },
  };
  return self;
}

const PLAIN = () => wordsEmbedder("test/plain", 256);
const ALIKE = () => wordsEmbedder("test/alike", 256, { feline: "cat", kitty: "cat", companion: "pet" });

const TURNS = [
  "My cat Biscuit always waits for me at the door",
  "I went hiking in the Alps last summer",
  "The quarterly report is due on Friday",
  "We adopted a beagle named Waffles last weekend",
  "I am allergic to peanuts",
];

function storePath(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-recorded-embedder-"));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, "engram.db");
}

async function open(file: string, embedder: Embedder | null, extra: { readonly?: boolean } = {}) {
  const engram = await createEngram({ path: file, embedder, background: false, tiers: false, ...extra });
  cleanups.unshift(() => engram.close());
  return engram;
}

async function filled(file: string, embedder: Embedder, users = ["u1"]): Promise<void> {
  const engram = await open(file, embedder);
  for (const userId of users) {
    await engram.add({
      userId,
      sessionId: "s1",
      messages: TURNS.map((content) => ({ role: "user" as const, content })),
    });
  }
  await engram.close();
}

const vectorOnly = async (engram: Engram, query: string) =>
  (await engram.search({ userId: "u1", query, limit: 5 }))
    .filter((r) => r.channels.vector)
    .map((r) => r.text);

/** The vector channel's score of the memory holding `text` for the query (0 when it did not list it). */
const vectorScore = async (engram: Engram, userId: string, query: string, text: string) =>
  (await engram.search({ userId, query, limit: 5 })).find((r) => r.text === text)?.channels.vector?.score ??
  0;

async function refusal(call: Promise<unknown>): Promise<EmbedderMismatchError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(EngramError.isInstance(error) && error.code).toBe("EMBEDDER_MISMATCH");
  return error as EmbedderMismatchError;
}

describe("the store records its embedder", () => {
  it("refuses an engine with another embedder, naming both, and stores nothing", async () => {
    const file = storePath();
    await filled(file, PLAIN());
    const other = await open(file, ALIKE());
    const error = await refusal(other.search({ userId: "u1", query: "feline companion" }));
    expect(error).toBeInstanceOf(EmbedderMismatchError);
    expect(error.message).toContain("test/plain (256 dimensions)");
    expect(error.message).toContain("test/alike");
    expect(error.message).toContain("engram reembed");
    expect(error.details).toEqual({ stored: "test/plain (256 dimensions)", configured: "test/alike" });
    await refusal(other.add({ userId: "u1", messages: [{ role: "user", content: "hello" }] }));
    await refusal(other.retrieve({ userId: "u1", query: "pets" }));
    expect((await other.stats({ userId: "u1" })).memories).toBe(TURNS.length);
  });

  it("refuses the same model with vectors of another size", async () => {
    const file = storePath();
    await filled(file, wordsEmbedder("test/m", 64));
    const other = await open(file, wordsEmbedder("test/m", 32));
    const error = await refusal(other.search({ userId: "u1", query: "cat" }));
    expect(error.message).toContain("test/m (64 dimensions)");
    expect(error.message).toContain("test/m (32 dimensions)");
  });

  it("an empty store takes the embedder it is opened with; full text only opens any store", async () => {
    const file = storePath();
    const first = await open(file, PLAIN());
    await first.search({ userId: "u1", query: "anything" });
    await first.close();
    await filled(file, ALIKE());
    expect(await storageOf(await open(file, null)).readSetting("embedder")).toBe(
      JSON.stringify({ id: "test/alike", dimensions: 256 }),
    );
    const fullText = await open(file, null);
    expect((await fullText.search({ userId: "u1", query: "Biscuit" }))[0]?.text).toContain("Biscuit");
  });

  it("a store made before stores recorded it takes the first embedder that opens it", async () => {
    const file = storePath();
    await filled(file, PLAIN());
    await storageOf(await open(file, null)).writeSetting("embedder", null);
    const engram = await open(file, ALIKE());
    await engram.search({ userId: "u1", query: "cat" });
    expect(JSON.parse((await storageOf(engram).readSetting("embedder")) ?? "")).toEqual({
      id: "test/alike",
      dimensions: 256,
    });
  });

  it("a read-only open records nothing", async () => {
    const file = storePath();
    await filled(file, PLAIN());
    await storageOf(await open(file, null)).writeSetting("embedder", null);
    const reader = await open(file, ALIKE(), { readonly: true });
    expect(await vectorOnly(reader, "cat")).not.toEqual([]);
    expect(await storageOf(reader).readSetting("embedder")).toBeNull();
  });

  it("export names the embedder that made the vectors; import into a store of another is refused", async () => {
    const file = storePath();
    await filled(file, PLAIN());
    const dump = await (await open(file, null)).export({ userId: "u1" });
    expect(dump.embedder).toBe("test/plain");
    const target = storePath();
    await filled(target, ALIKE(), ["u2"]);
    const other = await open(target, ALIKE());
    await refusal(open(target, PLAIN()).then((e) => e.import(dump)));
    const result = await other.import(dump);
    expect(result.reembedded).toBe(TURNS.length);
  });
});

describe("reembed", () => {
  it("moves a store to a new embedder: the search finds what the new model finds", async () => {
    const file = storePath();
    await filled(file, PLAIN(), ["u1", "u2"]);
    const before = await open(file, PLAIN());
    expect(await vectorScore(before, "u1", "feline companion", TURNS[0] as string)).toBeLessThan(0.05);
    await before.close();

    const alike = ALIKE();
    const mover = await open(file, alike);
    const progress: number[] = [];
    const result = await mover.reembed({ onProgress: (p) => progress.push(p.usersDone), batchSize: 2 });
    expect(result).toEqual({
      from: "test/plain (256 dimensions)",
      to: "test/alike",
      users: 2,
      memories: 10,
      resumed: false,
    });
    expect(progress.at(-1)).toBe(2);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(await vectorScore(mover, "u1", "feline companion", TURNS[0] as string)).toBeGreaterThan(0.2);
    expect((await vectorOnly(mover, "feline companion"))[0]).toBe(TURNS[0]);

    // Every stored vector is the new model's vector of the memory's text.
    const storage = storageOf(mover);
    const records = await storage.scan({ userId: "u1" });
    const vectors = await storage.getVectors(
      { userId: "u1" },
      records.map((r) => r.id),
    );
    const expected = await ALIKE().embed(records.map((r) => embeddingText(r)));
    for (const [i, r] of records.entries()) expect(vectors.get(r.id)).toEqual(expected[i]);

    await refusal(open(file, PLAIN()).then((e) => e.search({ userId: "u1", query: "cat" })));
    expect(await mover.reembed()).toMatchObject({ users: 0, memories: 0 });
  });

  it("moves to a model of another size", async () => {
    const file = storePath();
    await filled(file, PLAIN());
    const small = await open(file, wordsEmbedder("test/small", 16));
    expect(await small.reembed()).toMatchObject({ to: "test/small", memories: TURNS.length });
    expect(await vectorOnly(small, "beagle Waffles")).toContain(TURNS[3]);
    const records = await storageOf(small).scan({ userId: "u1" });
    const vectors = await storageOf(small).getVectors(
      { userId: "u1" },
      records.map((r) => r.id),
    );
    expect([...vectors.values()].every((v) => v.length === 16)).toBe(true);
  });

  it("an interrupted move is refused by both embedders until a second run finishes it", async () => {
    const file = storePath();
    await filled(file, PLAIN(), ["u1", "u2", "u3"]);
    const alike = ALIKE();
    let failAfter = 2;
    const flaky: Embedder = {
      id: alike.id,
      async embed(texts) {
        if (failAfter-- <= 0) throw new ModelError("embedding endpoint went away");
        return alike.embed(texts);
      },
    };
    const first = await open(file, flaky);
    await expect(first.reembed({ batchSize: 5 })).rejects.toThrow(/endpoint went away/);
    await first.close();

    const old = await open(file, PLAIN());
    const error = await refusal(old.search({ userId: "u1", query: "cat" }));
    expect(error.message).toMatch(/being moved from test\/plain \(256 dimensions\) to test\/alike/);
    await refusal((await open(file, ALIKE())).search({ userId: "u1", query: "cat" }));
    await expect((await open(file, wordsEmbedder("test/third", 8))).reembed()).rejects.toThrow(
      /a move to test\/alike is under way/,
    );

    const second = await open(file, ALIKE());
    expect(await second.reembed()).toMatchObject({ users: 1, memories: 5, resumed: true });
    for (const userId of ["u1", "u2", "u3"]) {
      expect(await vectorScore(second, userId, "feline companion", TURNS[0] as string)).toBeGreaterThan(0.2);
    }
  });

  it("checks its input and refuses a read-only store or no embedder", async () => {
    const file = storePath();
    await filled(file, PLAIN());
    const engram = await open(file, ALIKE());
    await expect(engram.reembed({ batchSize: 0 })).rejects.toThrow(/batchSize/);
    await expect(engram.reembed({ onProgress: 3 } as never)).rejects.toThrow(/onProgress/);
    await expect(engram.reembed({ every: 1 } as never)).rejects.toThrow(/every/);
    await expect((await open(file, null)).reembed()).rejects.toThrow(/no embedder/);
    await expect((await open(file, ALIKE(), { readonly: true })).reembed()).rejects.toThrow(/read-only/);
  });
});
