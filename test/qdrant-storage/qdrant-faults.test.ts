import type { StoredMemory } from "@engram/core";
import { qdrantStorage } from "@engram/core/qdrant";
import { afterEach, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "../qdrant-double/index.js";
import { makeVersion, stored, unit } from "../support/make-record.js";

let double: QdrantDouble | null = null;
afterEach(async () => {
  await double?.close();
  double = null;
});

const U = { userId: "u1" };
const BATCHES = 10;
const PER_BATCH = 8;

function batch(b: number): StoredMemory[] {
  return Array.from({ length: PER_BATCH }, (_, i) =>
    stored({ id: `m${b}-${i}`, userId: "u1", text: `turn ${b} ${i} about walruses` }, unit(1, b, i, 1)),
  );
}

it("an ingest under 429/503/timeouts/dropped connections completes with nothing lost and nothing duplicated", async () => {
  double = await startQdrantDouble();
  const port = qdrantStorage({
    url: double.url,
    timeoutMs: 250,
    retries: 10,
    baseDelayMs: 5,
    maxDelayMs: 50,
  });
  await port.connect();
  double.injectFaults({
    rate: 0.2,
    kinds: ["429", "503", "timeout", "drop"],
    retryAfterSeconds: 1,
    delayMs: 500,
    seed: 11,
    paths: /\/points\//,
  });
  const started = Date.now();
  for (let b = 0; b < BATCHES; b++) {
    await port.write(U, {
      upsert: batch(b),
      history: batch(b).map((s) => makeVersion({ memoryId: s.record.id, userId: "u1", version: 1 })),
      jobs: [
        {
          id: `job-${b}`,
          type: "embed",
          payload: { b },
          runAt: "2026-01-01T00:00:00.000Z",
          dedupeKey: `k${b}`,
        },
      ],
    });
  }
  const elapsed = Date.now() - started;
  const faults = double.requests.filter(
    (r) => r.status === 429 || r.status === 503 || r.status === 408 || r.status === 0,
  );
  const rateLimited = double.requests.filter((r) => r.status === 429).length;
  double.clearFaults();
  expect(faults.length).toBeGreaterThan(3);
  // Retry-After is in seconds: each 429 cost the writer at least one second.
  expect(elapsed).toBeGreaterThanOrEqual(rateLimited * 1000);
  const ids = (await port.scan(U)).map((r) => r.id);
  expect(ids).toHaveLength(BATCHES * PER_BATCH);
  expect(new Set(ids).size).toBe(ids.length);
  expect(await port.stats(U)).toMatchObject({
    memories: BATCHES * PER_BATCH,
    vectors: BATCHES * PER_BATCH,
    history: BATCHES * PER_BATCH,
    jobs: { queued: BATCHES },
  });
  expect((await port.textSearch(U, { text: "walruses", k: 500 })).length).toBe(BATCHES * PER_BATCH);
}, 60_000);
