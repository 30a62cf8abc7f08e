import { createEngram, type Engram } from "@engram/core";
import { qdrantStorage } from "@engram/core/qdrant";
import { hashEmbeddingModel } from "@engram/core/testing";
import { expect, it } from "vitest";
import { startQdrantDouble } from "../qdrant-double/index.js";

// The snippet of docs/qdrant.md, "Use it", with the URL and embedder as parameters.
async function openEngram(url: string, apiKey: string | undefined): Promise<Engram> {
  const storage = qdrantStorage({
    url, // e.g. "http://localhost:6333"
    ...(apiKey ? { apiKey } : {}), // Qdrant Cloud, or a server with service.api_key
    collectionPrefix: "engram_", // several stores can share one server
  });
  await storage.connect(); // optional: fail now on a wrong URL, key or a too-old server
  return createEngram({ storage, embedder: hashEmbeddingModel() });
}

it("the docs snippet opens an engine on Qdrant", async () => {
  const double = await startQdrantDouble({ apiKey: "k" });
  const engram = await openEngram(double.url, "k");
  try {
    await engram.add({ userId: "u1", messages: [{ role: "user", content: "I keep bees in Oslo" }] });
    expect((await engram.search({ userId: "u1", query: "bees" }))[0]?.text).toContain("bees");
  } finally {
    await engram.close();
    await double.close();
  }
});
