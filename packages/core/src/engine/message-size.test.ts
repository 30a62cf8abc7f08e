import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ValidationError } from "../errors/index.js";
import { EMBEDDED_CHARS, MAX_MESSAGE_BYTES, PASSAGE_CHARS } from "../model/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import { createEngram } from "./create-engram.js";
import type { Engram } from "./engram.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** An engine whose embedder records every text it is given. */
async function recordingEngram(embedding?: {
  maxChars?: number;
  passages?: number;
}): Promise<{ engram: Engram; embedded: string[][] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-size-"));
  const embedded: string[][] = [];
  const engram = await createEngram({
    path: path.join(dir, "engram.db"),
    background: false,
    embedder: hashEmbeddingModel({ onCall: (values) => void embedded.push([...values]) }),
    ...(embedding ? { embedding } : {}),
  });
  cleanups.push(async () => {
    await engram.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { engram, embedded };
}

async function refusal(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

const FIVE_MB = 5 * 1024 * 1024;

describe("the message size limit", () => {
  it("refuses a 5 MB message before any work, naming the limit and the size; the store is unchanged", async () => {
    const { engram, embedded } = await recordingEngram();
    await engram.add({ userId: "u", messages: [{ role: "user", content: "I live in Porto." }] });
    const before = await engram.stats();
    embedded.length = 0;
    const error = await refusal(
      engram.add({
        userId: "u",
        messages: [
          { role: "user", content: "a short one" },
          { role: "assistant", content: "x".repeat(FIVE_MB) },
        ],
      }),
    );
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toContain("messages.1.content");
    expect(error.message).toContain("5,242,880 bytes");
    expect(error.message).toContain("1,048,576");
    expect(error.details).toMatchObject({ limit: MAX_MESSAGE_BYTES, bytes: FIVE_MB });
    expect(embedded).toEqual([]);
    expect(await engram.stats()).toEqual(before);
  });

  it("counts UTF-8 bytes, not characters: at the limit is accepted, one byte more is not", async () => {
    const { engram } = await recordingEngram();
    // "€" is three bytes in UTF-8; 349,525 of them plus one ASCII byte is exactly 1 MiB.
    const atLimit = `${"€".repeat(349_525)}a`;
    const result = await engram.add({ userId: "u", messages: [{ role: "user", content: atLimit }] });
    expect(result.ids).toHaveLength(1);
    const error = await refusal(
      engram.add({ userId: "u", messages: [{ role: "user", content: `${atLimit}b` }] }),
    );
    expect(error.details).toMatchObject({ bytes: MAX_MESSAGE_BYTES + 1 });
  });

  it("applies to edited text, feedback and imported memories", async () => {
    const { engram } = await recordingEngram();
    const { ids } = await engram.add({ userId: "u", messages: [{ role: "user", content: "hello" }] });
    const big = "y".repeat(MAX_MESSAGE_BYTES + 1);
    await refusal(engram.memories.update({ userId: "u", id: ids[0] as string, text: big }));
    await refusal(engram.feedback({ userId: "u", text: big }));
    const dump = await engram.export({ userId: "u" });
    const memories = dump.memories.map((m) => ({ ...m, text: big }));
    const error = await refusal(engram.import({ ...dump, userId: "v", memories }));
    expect(error.message).toContain("memories.0.text");
  });

  const sentence = "My sister moved to Lisbon last spring and opened a bakery near the river. ";
  const long = sentence.repeat(Math.ceil(100_000 / sentence.length));

  it("embeds no passage of a long message by default: every passage is found by full text", async () => {
    const { engram, embedded } = await recordingEngram();
    await engram.add({ userId: "u", messages: [{ role: "user", content: long }] });
    expect(embedded.flat()).toEqual([]);
    const stats = await engram.stats({ userId: "u" });
    expect(stats.byKind.passage).toBeGreaterThan(200);
    // The end of the text is found too, and the hit is the turn.
    const [hit] = await engram.search({ userId: "u", query: "sister bakery Lisbon", kinds: ["message"] });
    expect(hit?.memory.text).toBe(long.trim());
    const vector = await engram.search({
      userId: "u",
      query: "sister bakery Lisbon",
      channels: ["vector"],
      kinds: ["message"],
    });
    expect(vector).toEqual([]);
  });

  it("embeds a bounded number of passages when asked (the embedder never sees the whole text)", async () => {
    const { engram, embedded } = await recordingEngram({ passages: 8, maxChars: PASSAGE_CHARS + 40 });
    await engram.add({ userId: "u", messages: [{ role: "user", content: long }] });
    const values = embedded.flat();
    expect(Math.max(...values.map((v) => v.length))).toBeLessThanOrEqual(PASSAGE_CHARS + 40);
    expect(values.length).toBe(8);
    const hits = await engram.search({
      userId: "u",
      query: "sister bakery Lisbon",
      channels: ["vector"],
      kinds: ["message"],
    });
    expect(hits).toHaveLength(1);
  });

  it("embeds at most the first EMBEDDED_CHARS characters of a turn and its context, cut at a word", async () => {
    const { engram, embedded } = await recordingEngram();
    const first =
      "I finally booked the flights for our trip to Japan in April, and my brother is coming too. ";
    const second =
      "We will spend a week in Kyoto and then take the train to Hiroshima to see the museum there, and after that a few days by the sea.";
    // Longer than EMBEDDED_CHARS and under PASSAGE_CHARS: one turn, embedded in part.
    const said = `${first}${second} ${first}${first}`.trim();
    expect(said.length).toBeGreaterThan(EMBEDDED_CHARS);
    expect(said.length).toBeLessThanOrEqual(PASSAGE_CHARS);
    await engram.add({
      userId: "u",
      sessionId: "s",
      messages: [
        { role: "user", content: said },
        { role: "assistant", content: "That sounds wonderful." },
      ],
    });
    const values = embedded.flat();
    expect(values).toHaveLength(2);
    for (const v of values) expect(v.length).toBeLessThanOrEqual(EMBEDDED_CHARS);
    expect(values[0]).toBe(said.slice(0, (values[0] as string).length));
    expect(said[(values[0] as string).length]).toBe(" ");
    // The reply's own words come first, then as much of the turn before it as fits.
    expect(values[1]?.startsWith("That sounds wonderful.\nuser: I finally booked")).toBe(true);
  });

  it("refuses an embedding policy out of range, naming the field", async () => {
    await expect(createEngram({ path: ":memory:", embedding: { maxChars: 0 } })).rejects.toThrow(/maxChars/);
    await expect(createEngram({ path: ":memory:", embedding: { passages: -1 } })).rejects.toThrow(/passages/);
  });
});
