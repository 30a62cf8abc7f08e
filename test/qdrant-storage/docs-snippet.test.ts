import { createEngram, type Engram } from "@engram/core";
import { qdrantStorage } from "@engram/core/qdrant";
import { hashEmbeddingModel } from "@engram/core/testing";
import { QdrantClient } from "@qdrant/js-client-rest";
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

// The second snippet: the application's own client, with its key and headers.
async function openWithClient(url: string, apiKey: string | undefined): Promise<Engram> {
  const client = new QdrantClient({
    url,
    apiKey,
    headers: { "x-team": "assistants" },
    checkCompatibility: false,
  });
  return createEngram({
    storage: qdrantStorage({ client, collectionPrefix: "engram_" }),
    embedder: hashEmbeddingModel(),
  });
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

it("the second docs snippet opens an engine on the application's own QdrantClient", async () => {
  const double = await startQdrantDouble({ apiKey: "k" });
  const engram = await openWithClient(double.url, "k");
  try {
    await engram.add({ userId: "u1", messages: [{ role: "user", content: "I keep bees in Oslo" }] });
    expect((await engram.search({ userId: "u1", query: "bees" }))[0]?.text).toContain("bees");
    expect(double.requests.length).toBeGreaterThan(0);
    expect(double.requests.every((r) => r.status < 400)).toBe(true);
  } finally {
    await engram.close();
    await double.close();
  }
});

it("a store made with a client refuses url, apiKey and timeoutMs beside it, naming them", () => {
  const client = new QdrantClient({ url: "http://127.0.0.1:6333", checkCompatibility: false });
  expect(() => qdrantStorage({ client, url: "http://127.0.0.1:6333" })).toThrow(
    /client.*either url or client/,
  );
  expect(() => qdrantStorage({ client, apiKey: "k" })).toThrow(
    /apiKey.*configure apiKey on your QdrantClient/,
  );
  expect(() => qdrantStorage({ client, timeoutMs: 5 })).toThrow(/timeoutMs/);
  expect(() => qdrantStorage({})).toThrow(/url.*pass the server's url, or your own QdrantClient/);
  expect(() => qdrantStorage({ client: {} as QdrantClient })).toThrow(/expected a QdrantClient/);
  // @ts-expect-error: the old fetch option is gone; a client carries its own transport
  expect(() => qdrantStorage({ url: "http://127.0.0.1:6333", fetch })).toThrow(/fetch/);
});
