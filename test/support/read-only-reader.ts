/**
 * A child process for the read-only test, run as a user who cannot write the store: opens it with no
 * option (the engine must notice), reads, tries a write, then runs the CLI's commands against it.
 * Usage: read-only-reader.ts DB_PATH JSONL_PATH; prints one JSON document.
 */
import { runCliCaptured } from "@engram/cli";
import { createEngram, EngramError } from "@engram/core";
import { hashEmbeddingModel, storageOf } from "@engram/core/testing";

const [path, jsonl] = process.argv.slice(2) as [string, string];
const engram = await createEngram({ path, embedder: hashEmbeddingModel() });
const listed = await engram.memories.list({ userId: "u", kinds: ["message"] });
const report: Record<string, unknown> = {
  readOnly: engram.readOnly,
  hits: (await engram.search({ userId: "u", query: "tram Porto" })).map((h) => h.memory.text),
  context: (await engram.retrieve({ userId: "u", query: "How was the tram in Porto?" })).text.includes(
    "Porto",
  ),
  listed: listed.length,
  exported: (await engram.export({ userId: "u" })).memories.length,
  kv: (await storageOf(engram).kvGet({ userId: "w" }, ["n"], "k"))?.value ?? null,
  addError: await engram.add({ userId: "u", messages: [{ role: "user", content: "hi" }] }).then(
    () => null,
    (e: unknown) => (EngramError.isInstance(e) ? e.code : String(e)),
  ),
};
await engram.close();
const id = listed[0]?.id ?? "";
const commands: Record<string, string[]> = {
  search: ["search", "--user", "u", "tram"],
  list: ["list", "--user", "u"],
  show: ["show", id, "--user", "u"],
  stats: ["stats"],
  export: ["export", "--user", "u"],
  profile: ["profile", "--user", "u"],
  ingest: ["ingest", "--user", "u", jsonl],
};
const cli: Record<string, { code: number; stderr: string }> = {};
for (const [name, args] of Object.entries(commands)) {
  const run = await runCliCaptured([...args, "--db", path, "--no-embed"]);
  cli[name] = { code: run.code, stderr: run.stderr };
}
process.stdout.write(`${JSON.stringify({ ...report, cli })}\n`);
