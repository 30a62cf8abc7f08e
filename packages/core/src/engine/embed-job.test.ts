import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { embedderFromModel } from "../ai/index.js";
import { ModelError } from "../errors/index.js";
import { sequentialIds } from "../model/index.js";
import { failingEmbeddingModel, hashEmbeddingModel } from "../testing/index.js";
import { storageOf } from "../testing.js";
import { createEngram } from "./create-engram.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** An engine whose clock the test moves by hand, so queued retries become due without sleeping. */
async function tempEngram(failures?: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-jobs-"));
  let now = Date.parse("2026-06-01T08:00:00.000Z");
  const engram = await createEngram({
    tiers: false,
    background: false,
    path: path.join(dir, "engram.db"),
    embedder: failingEmbeddingModel(failures),
    clock: () => new Date(now),
    ids: sequentialIds(),
  });
  cleanups.push(async () => {
    await engram.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { engram, now: () => now, advance: (ms: number) => (now += ms) };
}

const u1 = { userId: "u1" };
const turns = {
  ...u1,
  messages: [
    { role: "user" as const, content: "The plumber comes on Thursday" },
    { role: "assistant" as const, content: "I will remind you about the plumber" },
  ],
};

describe("embedding failures", () => {
  it("stores raw turns as pending and full-text searchable, then flush embeds them", async () => {
    const { engram } = await tempEngram(1);
    const added = await engram.add(turns);
    expect(added.status).toBe("pending");
    expect(added.memories.map((m) => m.status)).toEqual(["pending", "pending"]);
    expect((await engram.stats(u1)).vectors).toBe(0);

    const [job, ...more] = await storageOf(engram).jobs(u1);
    expect(more).toEqual([]);
    expect(job).toMatchObject({ type: "embed", status: "queued", attempts: 0, payload: { ids: added.ids } });

    const text = await engram.search({ ...u1, query: "plumber", channels: ["fulltext"] });
    expect(text.map((r) => r.id).sort()).toEqual(added.ids);

    expect(await engram.flush()).toEqual({ completed: 1, retried: 0, failed: 0, errors: [] });
    for (const id of added.ids) expect((await engram.memories.get({ ...u1, id })).status).toBe("ready");
    expect((await engram.stats(u1)).vectors).toBe(2);
    expect((await storageOf(engram).jobs(u1))[0]).toMatchObject({
      status: "done",
      attempts: 1,
      lastError: null,
    });
    const dense = await engram.search({ ...u1, query: "plumber Thursday", channels: ["vector"] });
    expect(dense.map((r) => r.id)).toContain("mem_1");
    expect(await engram.flush()).toEqual({ completed: 0, retried: 0, failed: 0, errors: [] });
  });

  it("retries a job that keeps failing, then marks it failed with its error visible", async () => {
    const { engram, now, advance } = await tempEngram();
    const added = await engram.add(turns);
    expect(added.status).toBe("pending");

    for (let attempt = 1; attempt <= 4; attempt++) {
      const report = await engram.flush();
      expect(report).toMatchObject({ completed: 0, retried: 1, failed: 0 });
      // flush() says why: the job, its attempt, the error and when it runs again.
      expect(report.errors).toEqual([
        {
          job: { id: expect.any(String), type: "embed", userId: u1.userId, attempt },
          error: expect.stringMatching(/embedding still failing: .*simulated embedding failure/),
          retryAt: expect.any(String),
        },
      ]);
      // The retry is not due yet with the clock standing still.
      expect(await engram.flush()).toEqual({ completed: 0, retried: 0, failed: 0, errors: [] });
      const [job] = await storageOf(engram).jobs(u1);
      expect(job).toMatchObject({ status: "queued", attempts: attempt });
      expect(job?.lastError).toMatch(/embedding still failing: .*simulated embedding failure/);
      // Back-off: due again later, but within the 5-minute cap.
      const due = Date.parse(job?.runAt as string) - now();
      expect(due).toBeGreaterThan(0);
      expect(due).toBeLessThanOrEqual(300_000);
      advance(10 * 60_000);
    }
    const last = await engram.flush();
    expect(last).toMatchObject({ completed: 0, retried: 0, failed: 1 });
    expect(last.errors).toEqual([
      {
        job: expect.objectContaining({ type: "embed", attempt: 5 }),
        error: expect.stringMatching(/simulated embedding failure #6/),
        retryAt: null,
      },
    ]);
    const failed = await storageOf(engram).jobs(u1, "failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ type: "embed", attempts: 5 });
    expect(failed[0]?.lastError).toMatch(/simulated embedding failure #6/);

    advance(60 * 60_000);
    expect(await engram.flush()).toEqual({ completed: 0, retried: 0, failed: 0, errors: [] });
    // The raw turns are never lost.
    const kept = await engram.memories.list(u1);
    expect(kept.map((m) => m.status)).toEqual(["pending", "pending"]);
    expect((await engram.search({ ...u1, query: "plumber", channels: ["fulltext"] })).length).toBe(2);
    expect((await engram.stats(u1)).jobs).toEqual({ failed: 1 });
  });

  it("queues an embedding when an update's new text cannot be embedded", async () => {
    let broken = false;
    const inner = embedderFromModel(hashEmbeddingModel());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-jobs-"));
    const engram = await createEngram({
      tiers: false,
      background: false,
      path: path.join(dir, "engram.db"),
      // An Embedder (not a model) is used as given; this one fails while `broken` is set.
      embedder: {
        id: inner.id,
        embed: async (texts) => {
          if (broken) throw new ModelError("provider unavailable");
          return inner.embed(texts);
        },
      },
      ids: sequentialIds(),
    });
    cleanups.push(async () => {
      await engram.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    await engram.add(turns);
    const before = (await storageOf(engram).getVectors(u1, ["mem_1"])).get("mem_1");
    broken = true;
    const updated = await engram.memories.update({
      ...u1,
      id: "mem_1",
      text: "The electrician comes on Friday",
    });
    expect(updated).toMatchObject({ status: "pending", version: 2 });
    expect(await storageOf(engram).getVectors(u1, ["mem_1"])).toEqual(new Map());
    const queued = await storageOf(engram).jobs(u1, "queued");
    expect(queued.every((j) => j.type === "embed")).toBe(true);
    expect(queued.map((j) => j.payload.ids)).toContainEqual(["mem_1"]);

    broken = false;
    expect(await engram.flush()).toEqual({ completed: queued.length, retried: 0, failed: 0, errors: [] });
    expect((await engram.memories.get({ ...u1, id: "mem_1" })).status).toBe("ready");
    const after = (await storageOf(engram).getVectors(u1, ["mem_1"])).get("mem_1");
    expect(after).toEqual((await inner.embed(["The electrician comes on Friday"]))[0]);
    expect(after).not.toEqual(before);
  });
});
