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

function model(name: string, extra: Parameters<typeof writeTinyOnnxModel>[1] = {}): string {
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
    const spec = await embedderFromSpec(`onnx:${model("plain")}`);
    expect(spec).toMatchObject({ provider: "onnx", modelId: "engram-test/tiny-word-vectors" });
    const embedder = embedderFromModel(spec as NonNullable<typeof spec>);
    expect(embedder.id).toBe("onnx/engram-test/tiny-word-vectors");
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

  it("pools as the model's sentence-transformers config says, unless told otherwise", async () => {
    // The tiny model gives [CLS] no meaning: CLS pooling yields the zero vector, mean pooling does not.
    const cls = await onnxEmbeddingModel(model("cls", { pooling: "cls" }));
    const [pooled] = (await cls.doEmbed({ values: ["the red car"] })).embeddings;
    expect(pooled?.every((x) => x === 0)).toBe(true);
    const mean = await onnxEmbeddingModel(join(root, "cls"), { pooling: "mean" });
    expect((await mean.doEmbed({ values: ["the red car"] })).embeddings[0]?.some((x) => x > 0)).toBe(true);

    const max = model("max");
    mkdirSync(join(max, "1_Pooling"), { recursive: true });
    writeFileSync(join(max, "1_Pooling", "config.json"), JSON.stringify({ pooling_mode_max_tokens: true }));
    await expect(onnxEmbeddingModel(max)).rejects.toThrow(UnsupportedError);
    await expect(onnxEmbeddingModel(max)).rejects.toThrow(/asks for pooling_mode_max_tokens/);
  });

  it("names the folder and what is missing from it, and never reaches for a download", async () => {
    await expect(embedderFromSpec(`onnx:${join(root, "nowhere")}`)).rejects.toThrow(ValidationError);
    await expect(embedderFromSpec(`onnx:${join(root, "nowhere")}`)).rejects.toThrow(
      /nowhere: no such folder/,
    );
    const partial = model("partial");
    rmSync(join(partial, "tokenizer.json"));
    rmSync(join(partial, "onnx"), { recursive: true });
    await expect(onnxEmbeddingModel(partial)).rejects.toThrow(
      /partial: tokenizer.json, onnx\/model.onnx not found \(expected config.json, tokenizer.json and onnx\/model.onnx/,
    );
    // A hub name is not a folder here: refused before transformers.js could look it up online.
    await expect(embedderFromSpec("onnx:Xenova/all-MiniLM-L6-v2")).rejects.toThrow(/no such folder/);
  });

  it("is the store's recorded embedder: an engine with the offline model is refused, this one searches by meaning", async () => {
    const dir = model("store");
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
    const results = await engram.search({ userId: "ana", query: "vehicle", k: 2, kinds: ["message"] });
    expect(results[0]?.text).toBe("I bought a new car");
    expect(results[0]?.channels.vector?.score).toBeGreaterThan(0.3);
    await engram.close();

    const other = await createEngram({ path });
    await expect(other.search({ userId: "ana", query: "car" })).rejects.toThrow(EmbedderMismatchError);
    await expect(other.search({ userId: "ana", query: "car" })).rejects.toThrow(
      /made by onnx\/engram-test\/tiny-word-vectors \(24 dimensions\)/,
    );
    await other.close();
  });
});
