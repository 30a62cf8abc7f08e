// A deployment on Qdrant with an API embedder, installed with `npm install --omit=optional`: neither the
// SQLite module nor the offline model is on disk, and nothing asks for them.
import { createEngram, EngramError, offlineEmbeddingModel } from "@engram/core";
import { embedderFromSpec } from "@engram/core/integration";
import { qdrantStorage } from "@engram/core/qdrant";
import { QdrantClient } from "@qdrant/js-client-rest";

const { QDRANT_URL, EMBEDDINGS_URL } = process.env;
if (!QDRANT_URL || !EMBEDDINGS_URL) throw new Error("set QDRANT_URL and EMBEDDINGS_URL");

const embedder = await embedderFromSpec("openai:words", { url: EMBEDDINGS_URL });
const engram = await createEngram({ storage: qdrantStorage({ url: QDRANT_URL }), embedder, logger: false });
await engram.add({
  userId: "ada",
  messages: [
    { role: "user", content: "My cat Biscuit waits for me at the door" },
    { role: "user", content: "The quarterly report is due on Friday" },
  ],
});
await engram.flush();
const [best] = await engram.search({ userId: "ada", query: "cat at the door" });
if (!best?.text.includes("Biscuit") || best.channels.vector === undefined)
  throw new Error(`search did not find the cat through both channels: ${JSON.stringify(best)}`);
console.log(`qdrant + openai:words: found "${best.text}" (relevance ${best.relevance?.toFixed(2)})`);
await engram.close();

// The application's own configured client, as Qdrant users have one: the backend goes through it.
const client = new QdrantClient({ url: QDRANT_URL, headers: { "x-app": "lean" }, checkCompatibility: false });
const own = qdrantStorage({ client });
console.log(`qdrantStorage({ client }): connected to Qdrant ${await own.connect()}`);
await own.close();

// The defaults need what the install left out, and each says which package and what to do instead.
const failures: [string, () => PromiseLike<unknown>][] = [
  ["the default SQLite store", () => createEngram({ path: "lean.db", embedder: null })],
  ["the offline embedder", () => offlineEmbeddingModel().doEmbed({ values: ["hello"] })],
];
for (const [what, attempt] of failures) {
  try {
    await attempt();
    throw new Error(`${what} worked without its optional dependencies`);
  } catch (error) {
    if (!EngramError.isInstance(error) || !/better-sqlite3|@energetic-ai\/embeddings/.test(error.message))
      throw error;
    console.log(`${what}: ${error.code}: ${error.message.slice(0, 110)}...`);
  }
}
const loaded = Object.keys((await import("node:module")).createRequire(import.meta.url).cache);
if (loaded.some((path) => /better-sqlite3|energetic-ai|usearch/.test(path)))
  throw new Error(`loaded a module the install left out: ${loaded.join(", ")}`);
