// A program that uses Engram on Qdrant with an OpenAI-compatible embedder, run in its own process. It
// records every module it resolves and every native addon it loads, then prints them as JSON: the test
// checks that neither better-sqlite3 nor the offline model is among them. `--sqlite` runs the same
// program on the default SQLite store instead (the check's positive control).
//   qdrant-only-program.ts QDRANT_URL EMBEDDINGS_URL [--sqlite DB]
import { registerHooks } from "node:module";

const resolved: string[] = [];
registerHooks({
  resolve(specifier, context, next) {
    const result = next(specifier, context);
    resolved.push(result.url);
    return result;
  },
});
const dlopen = process.dlopen.bind(process);
const addons: string[] = [];
process.dlopen = (module: { exports: unknown }, filename: string, ...rest: [number?]) => {
  addons.push(filename);
  return dlopen(module, filename, ...rest);
};

const [qdrantUrl, embeddingsUrl, mode, dbPath] = process.argv.slice(2) as [string, string, string?, string?];
const { createEngram } = await import("@engram/core");
const { createOpenAI } = await import("@ai-sdk/openai");
const embedder = createOpenAI({ baseURL: embeddingsUrl, apiKey: "test-key" }).embedding(
  "text-embedding-3-small",
);
const storage =
  mode === "--sqlite" ? undefined : (await import("@engram/core/qdrant")).qdrantStorage({ url: qdrantUrl });
const engram = await createEngram({
  ...(storage ? { storage } : { path: dbPath as string }),
  embedder,
  background: false,
  logger: false,
});
await engram.add({ userId: "u1", messages: [{ role: "user", content: "I keep bees in Oslo." }] });
await engram.flush();
const found = await engram.search({ userId: "u1", query: "bees" });
const context = await engram.retrieve({ userId: "u1", query: "what do I keep?" });
await engram.close();
process.stdout.write(
  JSON.stringify({ found: found.map((r) => r.text), context: context.text.length, resolved, addons }),
);
