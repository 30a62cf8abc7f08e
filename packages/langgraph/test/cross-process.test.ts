import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, expect, it } from "vitest";

const run = promisify(execFile);
const HERE = dirname(fileURLToPath(import.meta.url));
const GRAPH = join(HERE, "support", "interrupted-graph.ts");

async function phase(db: string, name: "start" | "resume"): Promise<Record<string, unknown>> {
  const { stdout } = await run(
    process.execPath,
    ["--conditions=@engram/source", "--import", "tsx", GRAPH, db, name],
    {
      cwd: HERE,
    },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "engram-lg-cross-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("a second process resumes a thread the first stopped mid-way, and recalls what the first stored", async () => {
  const db = join(dir, "graph.db");
  const first = await phase(db, "start");
  expect(first.next).toEqual(["ask"]);
  const second = await phase(db, "resume");
  expect(second.pid).not.toBe(first.pid);
  expect(second.nextBefore).toEqual(["ask"]);
  expect(second.question).toBe("what is the cat called?");
  expect(second.answer).toBe("Alice's cat is called Miso");
});
