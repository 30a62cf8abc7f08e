import { MockEmbeddingModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { ModelError } from "../errors/index.js";
import { normalize } from "../model/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import { embedderFromModel } from "./embedder.js";

const texts = (n: number) => Array.from({ length: n }, (_, i) => `text number ${i}`);

function norm(v: Float32Array): number {
  return Math.sqrt(v.reduce((a, x) => a + x * x, 0));
}

/** A mock whose vector for text i is [i + 1, 1], so order and normalisation are checkable. */
function mock(maxEmbeddingsPerCall: number | undefined | PromiseLike<number | undefined>) {
  return new MockEmbeddingModelV4({
    provider: "mock",
    modelId: "m1",
    maxEmbeddingsPerCall: maxEmbeddingsPerCall ?? null,
    doEmbed: async ({ values }) => ({
      embeddings: values.map((v) => [Number(v.split(" ").at(-1)) + 1, 1]),
      warnings: [],
    }),
  });
}

describe("normalize", () => {
  it("scales to unit length and leaves a zero vector at zero", () => {
    expect([...normalize([3, 4])]).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect([...normalize([0, 0, 0])]).toEqual([0, 0, 0]);
  });
});

describe("embedderFromModel", () => {
  it("is named provider/model", () => {
    expect(embedderFromModel(mock(2)).id).toBe("mock/m1");
  });

  it("splits batches by the model's maxEmbeddingsPerCall and keeps input order", async () => {
    const model = mock(2);
    const out = await embedderFromModel(model).embed(texts(5));
    expect(model.doEmbedCalls.map((c) => c.values.length)).toEqual([2, 2, 1]);
    expect(out.map((v) => (v[0] as number) / (v[1] as number))).toEqual(
      [1, 2, 3, 4, 5].map((x) => expect.closeTo(x, 5)),
    );
  });

  it("awaits a promised limit", async () => {
    const model = mock(Promise.resolve(3));
    await embedderFromModel(model).embed(texts(7));
    expect(model.doEmbedCalls.map((c) => c.values.length)).toEqual([3, 3, 1]);
  });

  it("uses batchSize (default 64) when the model states no limit or a larger one", async () => {
    const unlimited = mock(undefined);
    await embedderFromModel(unlimited).embed(texts(130));
    expect(unlimited.doEmbedCalls.map((c) => c.values.length)).toEqual([64, 64, 2]);

    const calls: number[] = [];
    const hash = hashEmbeddingModel({ onCall: (values) => calls.push(values.length) });
    await embedderFromModel(hash, { batchSize: 4 }).embed(texts(10));
    expect(calls).toEqual([4, 4, 2]);

    const infinite = mock(Number.POSITIVE_INFINITY);
    await embedderFromModel(infinite, { batchSize: 5 }).embed(texts(6));
    expect(infinite.doEmbedCalls.map((c) => c.values.length)).toEqual([5, 1]);
  });

  it("does not call the model for no texts", async () => {
    const model = mock(2);
    expect(await embedderFromModel(model).embed([])).toEqual([]);
    expect(model.doEmbedCalls).toHaveLength(0);
  });

  it("returns unit-length Float32Arrays", async () => {
    const out = await embedderFromModel(hashEmbeddingModel()).embed([
      "the cat sat",
      "dogs bark loudly at night",
    ]);
    for (const v of out) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(64);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
  });

  it("turns a provider error into a ModelError that keeps the cause", async () => {
    const cause = new Error("rate limited");
    const model = new MockEmbeddingModelV4({
      provider: "mock",
      modelId: "m1",
      doEmbed: async () => {
        throw cause;
      },
    });
    const error = await embedderFromModel(model)
      .embed(["a"])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).code).toBe("MODEL");
    expect((error as ModelError).message).toContain("mock/m1");
    expect((error as ModelError).message).toContain("rate limited");
    expect((error as ModelError).cause).toBe(cause);
  });

  it("refuses an answer with the wrong number of vectors", async () => {
    const model = new MockEmbeddingModelV4({
      provider: "mock",
      modelId: "m1",
      maxEmbeddingsPerCall: 10,
      doEmbed: { embeddings: [[1, 0]], warnings: [] },
    });
    const error = await embedderFromModel(model)
      .embed(["a", "b"])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toMatch(/returned 1 vectors for 2 texts/);
  });
});
