import { createEngram, type Embedder, type Engram, EngramError } from "@engram/core";
import { qdrantStorage } from "@engram/core/qdrant";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQdrantDouble } from "../qdrant-double/index.js";
import { wordsModel } from "../support/embeddings-stub.js";

const embedder = (id: string, synonyms: Record<string, string> = {}): Embedder => {
  const model = wordsModel(256, synonyms);
  const unit = (v: number[]) => {
    const norm = Math.hypot(...v) || 1;
    return Float32Array.from(v, (x) => x / norm);
  };
  return { id, embed: async (texts) => texts.map((t) => unit(model(t))) };
};
const PLAIN = embedder("test/plain");
const ALIKE = embedder("test/alike", { feline: "cat", companion: "pet" });
const CAT = "My cat Biscuit always waits for me at the door";

let double: Awaited<ReturnType<typeof startQdrantDouble>>;
beforeAll(async () => {
  double = await startQdrantDouble();
});
afterAll(() => double.close());

async function open(model: Embedder, prefix: string): Promise<Engram> {
  const storage = qdrantStorage({ url: double.url, collectionPrefix: prefix });
  return createEngram({ storage, embedder: model, background: false, tiers: false, logger: false });
}

const catScore = async (engram: Engram) =>
  (await engram.search({ userId: "u1", query: "feline companion", limit: 5 })).find((r) => r.text === CAT)
    ?.channels.vector?.score ?? 0;

describe("the embedder record and reembed on Qdrant", () => {
  it("records the embedder, refuses another, and moves the store with reembed", async () => {
    const first = await open(PLAIN, "re_");
    await first.add({
      userId: "u1",
      messages: [CAT, "I went hiking in the Alps", "I am allergic to peanuts"].map((content) => ({
        role: "user" as const,
        content,
      })),
    });
    expect(await catScore(first)).toBeLessThan(0.05);
    await first.close();

    const other = await open(ALIKE, "re_");
    const error = await other.search({ userId: "u1", query: "cat" }).catch((e: unknown) => e);
    expect(EngramError.isInstance(error) && error.code).toBe("EMBEDDER_MISMATCH");
    expect((error as Error).message).toContain("made by test/plain (256 dimensions)");

    expect(await other.reembed()).toMatchObject({
      from: "test/plain (256 dimensions)",
      to: "test/alike",
      memories: 3,
    });
    expect(await catScore(other)).toBeGreaterThan(0.2);
    await other.close();
    const old = await open(PLAIN, "re_");
    await expect(old.search({ userId: "u1", query: "cat" })).rejects.toThrow(/made by test\/alike/);
    await old.close();
  });
});
