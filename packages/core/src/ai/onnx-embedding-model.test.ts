import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEngram } from "../engine/index.js";
import { EmbedderMismatchError, UnsupportedError, ValidationError } from "../errors/index.js";
import { writeTinyOnnxModel } from "../testing/index.js";
import { embedderFromModel } from "./embedder.js";
import { embedderFromSpec, parseEmbedderSpec } from "./embedder-spec.js";
import { onnxEmbeddingModel } from "./onnx-embedding-model.js";

const root = mkdtempSync(join(tmpdir(), "engram-onnx-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const VOCABULARY = {
  synonyms: [
    ["car", "automobile", "vehicle"],
    ["dog", "puppy", "beagle"],
  ],
  words: ["i", "bought", "a", "new", "walked", "my", "the", "in", "park", "red"],
};

function model_(name: string, extra: Parameters<typeof writeTinyOnnxModel>[1] = {}): string {
  const dir = join(root, name);
  writeTinyOnnxModel(dir, { ...VOCABULARY, ...extra });
  return dir;
}

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);

describe("onnx:DIR, a local ONNX embedding model", () => {
  it("parses onnx:DIR, a folder with spaces included, and refuses onnx: with no folder", () => {
    expect(parseEmbedderSpec("onnx:./models/bge-small-en-v1.5")).toEqual({
      kind: "onnx",
      dir: "./models/bge-small-en-v1.5",
    });
    expect(parseEmbedderSpec("onnx:/srv/my models/e5 ")).toEqual({ kind: "onnx", dir: "/srv/my models/e5" });
    expect(() => parseEmbedderSpec("onnx: ")).toThrow(/expected offline, none, openai:MODEL, onnx:DIR/);
  });

  it("embeds from the folder's files: synonyms close, other meanings apart, a blank text the zero vector", async () => {
    const spec = await embedderFromSpec(`onnx:${model_("plain")}`);
    expect(spec).toMatchObject({ provider: "onnx", modelId: "engram-test/tiny-word-vectors:fp32:mean" });
    const embedder = embedderFromModel(spec as NonNullable<typeof spec>);
    expect(embedder.id).toBe("onnx/engram-test/tiny-word-vectors:fp32:mean");
    const [car, automobile, puppy, blank] = await embedder.embed([
      "I bought a new car",
      "the red automobile",
      "I walked my puppy",
      "  ",
    ]);
    expect(car).toHaveLength(24);
    // The two share one meaning of four; the third shares none with the second.
    expect(cosine(car as Float32Array, automobile as Float32Array)).toBeGreaterThan(0.2);
    expect(cosine(automobile as Float32Array, puppy as Float32Array)).toBeLessThan(0.1);
    expect([...(blank as Float32Array)].every((x) => x === 0)).toBe(true);
  });

  it("gives a batch of blank texts zero vectors of the model's size", async () => {
    const model = await onnxEmbeddingModel(model_("blank"));
    const { embeddings } = await model.doEmbed({ values: [" ", ""] });
    expect(embeddings.map((e) => e.length)).toEqual([24, 24]);
    expect(embeddings.flat().every((x) => x === 0)).toBe(true);
  });

  it("embeds a text longer than the model reads as pieces, so its end counts too", async () => {
    const model = await onnxEmbeddingModel(model_("long", { words: ["filler", "zebra"] }));
    // 128 tokens at most (tokenizer_config.json): "zebra" after 300 words would be cut off whole.
    const long = `${"filler ".repeat(300)}zebra`;
    const [vector] = (await model.doEmbed({ values: [long] })).embeddings;
    expect(vector?.[VOCABULARY.synonyms.length + 1]).toBeGreaterThan(0);
  });

  it("takes the quantized weights when they are the folder's only ones, and says so in its identity", async () => {
    const model = await onnxEmbeddingModel(model_("quantized", { precision: "q8" }));
    expect(model.modelId).toBe("engram-test/tiny-word-vectors:q8:mean");
    expect((await model.doEmbed({ values: ["the red car"] })).embeddings[0]?.some((x) => x > 0)).toBe(true);
  });

  it("refuses float16 outputs, which transformers.js would pool as raw bits", async () => {
    const dir = model_("half", { precision: "fp16" });
    await expect(onnxEmbeddingModel(dir)).rejects.toThrow(UnsupportedError);
    await expect(onnxEmbeddingModel(dir)).rejects.toThrow(/outputs are float16, not float32/);
  });

  it("reads only the folder: no request leaves the process while it loads and embeds", async () => {
    const real = globalThis.fetch;
    const asked: string[] = [];
    globalThis.fetch = (async (input: string | URL | Request) => {
      asked.push(String(input));
      throw new Error("no network in this test");
    }) as typeof fetch;
    try {
      const model = await onnxEmbeddingModel(model_("offline-only"));
      await model.doEmbed({ values: ["the red car"] });
    } finally {
      globalThis.fetch = real;
    }
    expect(asked).toEqual([]);
  });

  it("pools as the model's sentence-transformers config says, unless told otherwise", async () => {
    // The tiny model gives [CLS] no meaning: CLS pooling yields the zero vector, mean pooling does not.
    const cls = await onnxEmbeddingModel(model_("cls", { pooling: "cls" }));
    const [pooled] = (await cls.doEmbed({ values: ["the red car"] })).embeddings;
    expect(pooled?.every((x) => x === 0)).toBe(true);
    const mean = await onnxEmbeddingModel(join(root, "cls"), { pooling: "mean" });
    expect((await mean.doEmbed({ values: ["the red car"] })).embeddings[0]?.some((x) => x > 0)).toBe(true);

    const max = model_("max");
    mkdirSync(join(max, "1_Pooling"), { recursive: true });
    writeFileSync(join(max, "1_Pooling", "config.json"), JSON.stringify({ pooling_mode_max_tokens: true }));
    await expect(onnxEmbeddingModel(max)).rejects.toThrow(UnsupportedError);
    await expect(onnxEmbeddingModel(max)).rejects.toThrow(/asks for pooling_mode_max_tokens/);
  });

  it("names the folder and what is missing or broken in it", async () => {
    await expect(embedderFromSpec(`onnx:${join(root, "nowhere")}`)).rejects.toThrow(ValidationError);
    await expect(embedderFromSpec(`onnx:${join(root, "nowhere")}`)).rejects.toThrow(
      `onnx:${join(root, "nowhere")}: no such folder`,
    );
    const partial = model_("partial");
    rmSync(join(partial, "tokenizer.json"));
    rmSync(join(partial, "tokenizer_config.json"));
    rmSync(join(partial, "onnx"), { recursive: true });
    await expect(onnxEmbeddingModel(partial)).rejects.toThrow(
      /partial: tokenizer.json, tokenizer_config.json, onnx\/model.onnx not found \(expected config.json, tokenizer.json, tokenizer_config.json and onnx\/model.onnx/,
    );
    await expect(onnxEmbeddingModel(join(partial, "config.json"))).rejects.toThrow(/a file, not a folder/);
    const broken = model_("broken");
    writeFileSync(join(broken, "onnx", "model.onnx"), "not a model");
    await expect(onnxEmbeddingModel(broken)).rejects.toThrow(ValidationError);
    await expect(onnxEmbeddingModel(broken)).rejects.toThrow(/broken: the model does not load/);
    const nullConfig = model_("null-config");
    writeFileSync(join(nullConfig, "config.json"), "null");
    await expect(onnxEmbeddingModel(nullConfig)).rejects.toThrow(/config.json is not a JSON object/);
    // A hub name is not a folder here: refused before transformers.js could look it up online.
    await expect(embedderFromSpec("onnx:Xenova/all-MiniLM-L6-v2")).rejects.toThrow(/no such folder/);
  });

  it("is the store's recorded embedder: an engine with the offline model is refused, this one searches by meaning", async () => {
    const dir = model_("store");
    const path = join(root, "store.db");
    const embedder = await onnxEmbeddingModel(dir);
    const engram = await createEngram({ path, embedder });
    await engram.add({
      userId: "ana",
      messages: [
        { role: "user", content: "I bought a new car" },
        { role: "user", content: "I walked my puppy in the park" },
      ],
    });
    await engram.flush();
    const results = await engram.search({ userId: "ana", query: "vehicle", limit: 2, kinds: ["message"] });
    expect(results[0]?.text).toBe("I bought a new car");
    expect(results[0]?.channels.vector?.score).toBeGreaterThan(0.3);
    await engram.close();

    const other = await createEngram({ path });
    await expect(other.search({ userId: "ana", query: "car" })).rejects.toThrow(EmbedderMismatchError);
    await expect(other.search({ userId: "ana", query: "car" })).rejects.toThrow(
      /made by onnx\/engram-test\/tiny-word-vectors:fp32:mean \(24 dimensions\)/,
    );
    await other.close();
    // The same model pooled another way makes other vectors: refused too, not mixed in.
    const cls = await createEngram({ path, embedder: await onnxEmbeddingModel(dir, { pooling: "cls" }) });
    await expect(cls.search({ userId: "ana", query: "car" })).rejects.toThrow(EmbedderMismatchError);
    await cls.close();
  });
});
