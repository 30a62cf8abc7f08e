import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A new empty folder for one example's database. */
export function tempDb(name: string): string {
  return join(mkdtempSync(join(tmpdir(), `engram-consumer-${name}-`)), "engram.db");
}

export function check(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(`check failed: ${what}`);
}
