import { join } from "node:path";
import { runCliCaptured } from "@engram/cli";
import { createEngram, type EngramEvent } from "@engram/core";
import { hashEmbeddingModel, proseLanguageModel } from "@engram/core/testing";
import { afterAll, expect, it } from "vitest";
import { makeTempDir } from "./support/temp-dir.js";

const dir = makeTempDir("engram-prose-model-");
afterAll(() => dir.remove());

it("a model that answers prose: the event stream reports the failed tier job, and engram stats shows it", async () => {
  const db = join(dir.path, "engram.db");
  const events: EngramEvent[] = [];
  const engram = await createEngram({
    path: db,
    embedder: hashEmbeddingModel(),
    llm: proseLanguageModel(),
    background: false,
    logger: false,
    onEvent: (event) => events.push(event),
  });
  try {
    for (let i = 0; i < 20; i++) {
      await engram.add({
        userId: "ana",
        messages: [{ role: "user", content: `I hiked the coast path, day ${i}.` }],
      });
    }
    const report = await engram.flush();
    expect(report.retried).toBe(1);
    const retry = events.find((e) => e.type === "job.retry");
    expect(retry).toMatchObject({ job: { type: "tiers", userId: "ana", attempt: 1 } });
    expect(report.errors[0]?.error).toBe(retry?.type === "job.retry" ? retry.error : undefined);
  } finally {
    await engram.close();
  }
  const text = await runCliCaptured(["stats", "--user", "ana", "--db", db, "--no-embed"]);
  expect(text.code).toBe(0);
  expect(text.stdout).toMatch(/\nfailing\s+tiers failed 1 times, retried at \S+: /);
  const json = JSON.parse(
    (await runCliCaptured(["stats", "--user", "ana", "--db", db, "--no-embed", "--json"])).stdout,
  );
  expect(json.failingJobs).toEqual([
    expect.objectContaining({ type: "tiers", status: "queued", attempts: 1 }),
  ]);
});
