import { join } from "node:path";
import { createEngram, type Engram } from "@engram/core";
import { hashEmbeddingModel, storageOf } from "@engram/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { faultyModel, type ModelFault } from "./support/scripted-llm.js";
import { makeTempDir } from "./support/temp-dir.js";

const dir = makeTempDir("engram-model-faults-");
afterAll(() => dir.remove());

const T0 = Date.parse("2026-03-01T09:00:00Z");
const u = { userId: "u" };

async function open(name: string, faults: readonly ModelFault[]) {
  let now = T0;
  const { model, calls } = faultyModel(faults);
  const engram = await createEngram({
    path: join(dir.path, `${name}.db`),
    embedder: hashEmbeddingModel({ dimensions: 64 }),
    llm: model,
    llmTimeoutMs: 150,
    clock: () => new Date(now),
    background: false,
    policy: { shortTermCapacity: 1, evictionBatch: 1, heatThreshold: 100 },
  });
  return { engram, calls, advance: (ms: number) => (now += ms) };
}

async function addTurns(engram: Engram, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const { ids: added } = await engram.add({
      ...u,
      sessionId: "s",
      messages: [
        { role: "user", content: `turn ${i}: my bicycle needs a new chain before the trip` },
        { role: "assistant", content: `noted, turn ${i}` },
      ],
    });
    ids.push(...added);
  }
  return ids;
}

/** Every turn is stored and found by full-text search, whatever the model did. */
async function expectTurnsKept(engram: Engram, ids: readonly string[]): Promise<void> {
  const messages = await engram.memories.list({ ...u, kinds: ["message"], limit: 1000 });
  expect(messages.map((m) => m.id).sort()).toEqual([...ids].sort());
  const hits = await engram.search({
    ...u,
    query: "bicycle chain",
    limit: 50,
    channels: ["fulltext"],
    kinds: ["message"],
  });
  const found = new Set(hits.map((h) => h.id));
  // The user's half of every turn holds the words searched for.
  expect(ids.filter((id, i) => i % 2 === 0 && !found.has(id))).toEqual([]);
}

describe("a language model that fails in every way loses no turn", () => {
  it("garbage JSON, 429, a timeout error and a hang: each retried with its error visible, then done", async () => {
    // Each structured call makes up to two requests (one retry for unusable output).
    const rounds: [ModelFault[], RegExp][] = [
      [["garbage", "garbage"], /returned unusable output twice/],
      [["429"], /HTTP 429.*may succeed if retried later/],
      [["timeout-error"], /timed out.*may succeed if retried later/],
      [["hang"], /no answer from the model within 150 ms/],
    ];
    const { engram, calls, advance } = await open("all-faults", [...rounds.flatMap(([f]) => f), "ok"]);
    const ids = await addTurns(engram, 3);
    for (const [attempt, [, error]] of rounds.entries()) {
      const started = Date.now();
      expect(await engram.flush()).toMatchObject({ retried: 1, failed: 0 });
      expect(Date.now() - started).toBeLessThan(5_000); // the hang did not hold the flush
      const [job] = await storageOf(engram).jobs(u, "queued");
      expect(job).toMatchObject({ type: "tiers", attempts: attempt + 1 });
      expect(job?.lastError).toMatch(error);
      await expectTurnsKept(engram, ids);
      advance(10 * 60_000);
    }
    expect(await engram.flush()).toMatchObject({ completed: 1, retried: 0, failed: 0 });
    expect(calls()).toBe(6);
    expect(await storageOf(engram).jobs(u, "queued")).toEqual([]);
    expect((await engram.memories.list({ ...u, kinds: ["segment"] })).length).toBeGreaterThan(0);
    await expectTurnsKept(engram, ids);
    await engram.close();
  });

  it("a model that always hangs: the job ends failed with its error, the turns stay, a new add still works", async () => {
    const { engram, advance } = await open("always-hangs", ["hang"]);
    const ids = await addTurns(engram, 2);
    for (let i = 0; i < 4; i++) {
      expect(await engram.flush()).toMatchObject({ retried: 1 });
      advance(10 * 60_000);
    }
    expect(await engram.flush()).toMatchObject({ completed: 0, failed: 1 });
    const [failed] = await storageOf(engram).jobs(u, "failed");
    expect(failed).toMatchObject({ type: "tiers", attempts: 5 });
    expect(failed?.lastError).toMatch(/no answer from the model within 150 ms/);
    expect((await engram.stats(u)).jobs).toMatchObject({ failed: 1 });
    await expectTurnsKept(engram, ids);
    const more = await addTurns(engram, 1);
    await expectTurnsKept(engram, [...ids, ...more]);
    await engram.close();
  });
});
