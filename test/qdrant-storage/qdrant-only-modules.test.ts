import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQdrantDouble } from "../qdrant-double/index.js";
import { spawnNode, TEST_DIR } from "../support/spawn-node.js";
import { makeTempDir } from "../support/temp-dir.js";

const PROGRAM = join(TEST_DIR, "support", "qdrant-only-program.ts");
/** What the offline stack and the SQLite backend load: none of it may appear in a Qdrant-only program. */
const EMBEDDED_ONLY = /better-sqlite3|better_sqlite3|usearch|@energetic-ai|tfjs/;

/** An OpenAI-compatible `/v1/embeddings` stand-in: a 16-dimension vector from each text's letters. */
function embeddingsServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const { input } = JSON.parse(body) as { input: string[] };
      const data = input.map((text, index) => {
        const v = new Array<number>(16).fill(0);
        for (const ch of text.toLowerCase()) {
          const i = ch.charCodeAt(0) % 16;
          v[i] = (v[i] ?? 0) + 1;
        }
        return { object: "embedding", index, embedding: v };
      });
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({ object: "list", data, model: "stub", usage: { prompt_tokens: 1, total_tokens: 1 } }),
      );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server }),
    ),
  );
}

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
let embeddings: Awaited<ReturnType<typeof embeddingsServer>>;
beforeAll(async () => {
  double = await startQdrantDouble();
  embeddings = await embeddingsServer();
});
afterAll(async () => {
  await double.close();
  embeddings.server.close();
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
  });

  it("(the check itself: the same program on the SQLite store does load better-sqlite3)", async () => {
    const dir = makeTempDir("engram-sqlite-modules-");
    const report = await run([double.url, embeddings.url, "--sqlite", join(dir.path, "engram.db")]);
    expect(report.found).toEqual(["I keep bees in Oslo."]);
    expect(report.addons.some((file) => /better_sqlite3\.node$/.test(file))).toBe(true);
    expect(report.resolved.some((url) => EMBEDDED_ONLY.test(url))).toBe(true);
    dir.remove();
  });
});
