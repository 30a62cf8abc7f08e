import { describe, expect, it } from "vitest";
import { embedderFromSpec, parseEmbedderSpec } from "./embedder-spec.js";

describe("embedder specs", () => {
  it("parses offline, none and openai:MODEL", () => {
    expect(parseEmbedderSpec("offline")).toEqual({ kind: "offline" });
    expect(parseEmbedderSpec(" none ")).toEqual({ kind: "none" });
    expect(parseEmbedderSpec("openai:text-embedding-3-small")).toEqual({
      kind: "openai",
      model: "text-embedding-3-small",
    });
    expect(parseEmbedderSpec("openai:nomic-embed-text:latest")).toEqual({
      kind: "openai",
      model: "nomic-embed-text:latest",
    });
  });

  it("refuses anything else, listing the accepted forms and naming where it came from", () => {
    for (const bad of ["", "bert", "openai:", "openai", "OFFLINE", "openai:a b"]) {
      expect(() => parseEmbedderSpec(bad, "ENGRAM_EMBEDDER")).toThrow(
        `bad ENGRAM_EMBEDDER ${JSON.stringify(bad)}: expected offline, none, openai:MODEL`,
      );
    }
  });

  it("makes an OpenAI-compatible model for a URL, and asks for a key only for OpenAI's own API", async () => {
    expect(await embedderFromSpec("none")).toBeNull();
    const model = await embedderFromSpec("openai:nomic-embed-text", { url: "http://127.0.0.1:11434/v1" });
    expect(model).toMatchObject({ provider: "openai.embedding", modelId: "nomic-embed-text" });
    await expect(embedderFromSpec("openai:text-embedding-3-small")).rejects.toThrow(/set OPENAI_API_KEY/);
    expect(await embedderFromSpec("openai:text-embedding-3-small", { apiKey: "sk-test" })).toMatchObject({
      modelId: "text-embedding-3-small",
    });
    await expect(embedderFromSpec("openai:m", { url: "localhost:11434" })).rejects.toThrow(
      'bad embedder URL "localhost:11434"',
    );
  });
});
