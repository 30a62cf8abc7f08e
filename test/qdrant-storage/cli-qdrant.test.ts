import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCliCaptured } from "@engram/cli";
import { afterAll, afterEach, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "../qdrant-double/index.js";
import { makeTempDir } from "../support/temp-dir.js";

let double: QdrantDouble | null = null;
const dir = makeTempDir("engram-cli-qdrant-");
afterAll(() => dir.remove());
afterEach(async () => {
  await double?.close();
  double = null;
});

it("the CLI stores in Qdrant with QDRANT_URL or --qdrant-url, and the api key from QDRANT_API_KEY", async () => {
  double = await startQdrantDouble({ apiKey: "k3y" });
  const file = join(dir.path, "turns.jsonl");
  writeFileSync(
    file,
    `${JSON.stringify({ role: "user", content: "my canoe is green" })}\n${JSON.stringify({ role: "assistant", content: "a green canoe, nice" })}\n`,
  );
  const env = { QDRANT_URL: double.url, QDRANT_API_KEY: "k3y", ENGRAM_QDRANT_PREFIX: "cli_" };
  const ingest = await runCliCaptured(["ingest", "--user", "u1", file, "--no-embed"], { env });
  expect(ingest.stderr).toBe("");
  expect(ingest.code).toBe(0);
  // The flag instead of the environment variable.
  const search = await runCliCaptured(
    ["search", "--qdrant-url", double.url, "--user", "u1", "canoe", "--no-embed", "--json"],
    {
      env: { QDRANT_API_KEY: "k3y", ENGRAM_QDRANT_PREFIX: "cli_" },
    },
  );
  expect(search.code).toBe(0);
  expect(search.stdout).toContain("green canoe");
  const stats = await runCliCaptured(["stats", "--json"], { env });
  expect(JSON.parse(stats.stdout)).toMatchObject({ users: 1 });
  const denied = await runCliCaptured(["stats"], {
    env: { QDRANT_URL: double.url, QDRANT_API_KEY: "wrong" },
  });
  expect(denied.code).toBe(1);
  expect(denied.stderr).toMatch(/HTTP 403: Invalid API key.*QDRANT_API_KEY/);
});
