// One cold measurement in a fresh process: open the store, time its first vector search (the index file
// is memory-mapped and the log replayed, or the index built when there is no file). Prints JSON.
//   tsx bench/vector-index-cold.ts --db FILE --user ID --query FILE.f32 [--k 256 --approximate 128]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { SqliteStorage } from "@engram/core/sqlite";

const { values } = parseArgs({
  options: {
    db: { type: "string" },
    user: { type: "string" },
    query: { type: "string" },
    k: { type: "string", default: "256" },
    approximate: { type: "string", default: "128" },
  },
});
if (!values.db || !values.user || !values.query) throw new Error("--db, --user and --query are required");
const bytes = readFileSync(values.query);
const vector = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
const started = performance.now();
const storage = new SqliteStorage({ path: values.db });
const opened = performance.now();
const hits = await storage.vectorSearch(
  { userId: values.user },
  { vector, k: Number(values.k), approximateK: Number(values.approximate) },
);
const searched = performance.now();
await storage.close();
console.log(
  JSON.stringify({
    openMs: Number((opened - started).toFixed(2)),
    firstSearchMs: Number((searched - opened).toFixed(2)),
    closeMs: Number((performance.now() - searched).toFixed(2)),
    hits: hits.length,
  }),
);
