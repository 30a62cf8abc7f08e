/**
 * A child process that reads a store and keeps its read transaction open (as a long query or an open
 * cursor of another program would) until a line arrives on stdin.
 * Usage: hold-read.ts DB_PATH; prints "reading" once it holds the snapshot, "released" once it let go.
 */
import { createRequire } from "node:module";

const Database = createRequire(import.meta.url)("better-sqlite3") as new (
  path: string,
  options: { readonly: boolean; fileMustExist: boolean },
) => { exec(sql: string): void; prepare(sql: string): { get(): unknown }; close(): void };

// Read-only, so its close does not checkpoint the log as a last writable connection would.
const db = new Database(process.argv[2] as string, { readonly: true, fileMustExist: true });
db.exec("BEGIN");
db.prepare("SELECT count(*) FROM memories").get();
process.stdout.write("reading\n");
process.stdin.once("data", () => {
  db.exec("COMMIT");
  db.close();
  process.stdout.write("released\n");
  process.exit(0);
});
