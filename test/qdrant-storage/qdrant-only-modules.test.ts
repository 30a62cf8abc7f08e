import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQdrantDouble } from "../qdrant-double/index.js";
import { embeddingsStub, lettersModel } from "../support/embeddings-stub.js";
import { spawnNode, TEST_DIR } from "../support/spawn-node.js";
import { makeTempDir } from "../support/temp-dir.js";

const PROGRAM = join(TEST_DIR, "support", "qdrant-only-program.ts");
/** What the offline stack and the SQLite backend load: none of it may appear in a Qdrant-only program. */
const EMBEDDED_ONLY = /better-sqlite3|better_sqlite3|usearch|@energetic-ai|tfjs/;
/** Qdrant's official client (and its HTTP stack): loaded by the Qdrant backend only. */
const QDRANT_CLIENT = /@qdrant[/+]js-client-rest/;

interface Report {
  found: string[];
  context: number;
  resolved: string[];
  addons: string[];
}

async function run(args: string[]): Promise<Report> {
  const child = spawnNode(PROGRAM, args);
  const code = await child.exited;
  expect(code, child.output.stderr).toBe(0);
  return JSON.parse(child.output.stdout) as Report;
}

let double: Awaited<ReturnType<typeof startQdrantDouble>>;
let embeddings: Awaited<ReturnType<typeof embeddingsStub>>;
beforeAll(async () => {
  double = await startQdrantDouble();
  // The program asks for text-embedding-3-small: a 16-dimension vector from each text's letters.
  embeddings = await embeddingsStub({ "text-embedding-3-small": lettersModel(16) });
});
afterAll(async () => {
  await double.close();
  await embeddings.close();
});

describe("a program on Qdrant with an API embedder", () => {
  it("never loads better-sqlite3, the vector index or the offline model", async () => {
    const report = await run([double.url, embeddings.url]);
    expect(report.found).toEqual(["I keep bees in Oslo."]);
    expect(report.context).toBeGreaterThan(0);
    expect(
      report.resolved.filter((url) => url.includes("@engram/core") || url.includes("packages/core")),
    ).not.toEqual([]);
    expect(report.resolved.filter((url) => EMBEDDED_ONLY.test(url))).toEqual([]);
    expect(report.addons).toEqual([]);
    expect(report.resolved.some((url) => QDRANT_CLIENT.test(url))).toBe(true);
  });

  it("(the check itself: the same program on the SQLite store loads better-sqlite3, and no Qdrant client)", async () => {
    const dir = makeTempDir("engram-sqlite-modules-");
    const report = await run([double.url, embeddings.url, "--sqlite", join(dir.path, "engram.db")]);
    expect(report.found).toEqual(["I keep bees in Oslo."]);
    expect(report.addons.some((file) => /better_sqlite3\.node$/.test(file))).toBe(true);
    expect(report.resolved.some((url) => EMBEDDED_ONLY.test(url))).toBe(true);
    // An embedded program never loads Qdrant's client.
    expect(report.resolved.filter((url) => QDRANT_CLIENT.test(url))).toEqual([]);
    dir.remove();
  });
});
