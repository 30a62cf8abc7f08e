import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ValidationError } from "../errors/index.js";
import { EMBEDDED_PASSAGES, MAX_MESSAGE_BYTES, PASSAGE_CHARS } from "../model/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import { createEngram, type Engram } from "./create-engram.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** An engine whose embedder records every text it is given. */
async function recordingEngram(): Promise<{ engram: Engram; embedded: string[][] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-size-"));
  const embedded: string[][] = [];
  const engram = await createEngram({
    path: path.join(dir, "engram.db"),
    background: false,
    embedder: hashEmbeddingModel({ onCall: (values) => void embedded.push([...values]) }),
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

  it("embeds a long message as a bounded number of passages (the embedder never sees the whole text)", async () => {
    const { engram, embedded } = await recordingEngram();
    const sentence = "My sister moved to Lisbon last spring and opened a bakery near the river. ";
    const long = sentence.repeat(Math.ceil(100_000 / sentence.length));
    await engram.add({ userId: "u", messages: [{ role: "user", content: long }] });
    const values = embedded.flat();
    expect(Math.max(...values.map((v) => v.length))).toBeLessThanOrEqual(PASSAGE_CHARS + 40);
    expect(values.length).toBeLessThanOrEqual(EMBEDDED_PASSAGES);
    // Every passage is in the full-text index, embedded or not: the end of the text is found too.
    const stats = await engram.stats({ userId: "u" });
    expect(stats.byKind.passage).toBeGreaterThan(200);
    const hits = await engram.search({
      userId: "u",
      query: "sister bakery Lisbon",
      channels: ["vector"],
      kinds: ["message"],
    });
    expect(hits).toHaveLength(1);
  });
});
