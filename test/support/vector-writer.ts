// A process that opens a store, searches a user's large scope (loading its persisted vector index),
// commits one memory near the all-ones direction, prints "committed" and waits to be killed: a crash
// after an acknowledged write, before any index file is saved.
//   tsx test/support/vector-writer.ts DB USER ID
import { SqliteStorage } from "@engram/core/sqlite";
import { stored, unit } from "./make-record.js";

const [db, userId, id] = process.argv.slice(2) as [string, string, string];
const storage = new SqliteStorage({ path: db });
const scope = { userId };
await storage.vectorSearch(scope, { vector: unit(1, 1, 1, 1, 1, 1, 1, 1), k: 1 });
await storage.write(scope, { upsert: [stored({ id, userId }, unit(1, 1, 1, 1, 1, 1, 1, 0.95))] });
console.log("committed");
setInterval(() => {}, 1000);
