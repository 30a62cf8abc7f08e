import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createEngram } from "../engine/create-engram.js";
import type { Engram } from "../engine/engram.js";
import type { StoragePort, WriteBatch } from "../storage/index.js";
import { SqliteStorage } from "../storage/sqlite/sqlite-storage.js";
import { hashEmbeddingModel } from "../testing/index.js";

const dir = mkdtempSync(join(tmpdir(), "engram-run-tiers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const open: Engram[] = [];
afterEach(async () => {
  for (const engram of open.splice(0)) await engram.close();
});

/** Turns whose words pages rarely share, so most pages start segments of their own (the costly case). */
function history(turns: number) {
  const syllables = [
    "ka",
    "lo",
    "mi",
    "ren",
    "tu",
    "sa",
    "vel",
    "dor",
    "pi",
    "quen",
    "zar",
    "bo",
    "el",
    "fin",
  ];
  let seed = 11;
  const word = () =>
    Array.from({ length: 3 }, () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return syllables[seed % syllables.length];
    }).join("");
  return Array.from({ length: turns }, (_, i) => ({
    role: i % 2 ? ("assistant" as const) : ("user" as const),
    content: `${i % 2 ? "Here is" : "Tell me about"} ${word()} ${word()} and ${word()} ${i}`,
    at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
  }));
}

let n = 0;
const fixedClock = () => new Date("2026-03-01T00:00:00Z");

/** An engine on a port that records every write batch and every scan's size. */
async function recordedEngram() {
  const writes: WriteBatch[] = [];
  let scanned = 0;
  const sqlite = new SqliteStorage({ path: join(dir, `t${++n}.db`) });
  const storage = new Proxy(sqlite, {
    get(target, prop) {
      if (prop === "write")
        return (scope: { userId: string }, batch: WriteBatch) => {
          writes.push(batch);
          return target.write(scope, batch);
        };
      if (prop === "scan")
        return async (...args: Parameters<StoragePort["scan"]>) => {
          const rows = await target.scan(...args);
          scanned += rows.length;
          return rows;
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as StoragePort;
  const engram = await createEngram({
    storage,
    embedder: hashEmbeddingModel(),
    background: false,
    clock: fixedClock,
  });
  open.push(engram);
  return { engram, writes, scanned: () => scanned };
}

async function plainEngram(): Promise<Engram> {
  const engram = await createEngram({
    path: join(dir, `p${++n}.db`),
    embedder: hashEmbeddingModel(),
    background: false,
    clock: fixedClock,
  });
  open.push(engram);
  return engram;
}

/** What the tiers made of a user: counts by kind and tier, the current facts, the segments' sizes. */
async function tierState(engram: Engram) {
  const stats = await engram.stats({ userId: "u" });
  const facts = await engram.memories.list({ userId: "u", kinds: ["fact"] });
  const segments = await engram.memories.list({ userId: "u", kinds: ["segment"] });
  return {
    byKind: stats.byKind,
    byTier: stats.byTier,
    facts: facts.map((f) => `${f.text} ${f.expiredAt === null}`).sort(),
    segments: segments.map((s) => s.metadata.size).sort(),
  };
}

describe("tier work after a bulk import", () => {
  const turns = history(2000);

  it("goes in bounded steps (each one write, a checkpoint between) and reads the backlog once, not per step", async () => {
    const { engram, writes, scanned } = await recordedEngram();
    await engram.add({ userId: "u", messages: turns });
    const progress: { stage: string; done: number; total: number }[] = [];
    writes.length = 0;
    await engram.flush({ onProgress: ({ stage, done, total }) => progress.push({ stage, done, total }) });
    const state = await tierState(engram);
    expect(state.byTier.mid).toBeGreaterThan(1900);
    expect(state.byKind.segment).toBeLessThanOrEqual(200);
    // Every write is bounded, whatever the backlog: no write moves more than 256 pages (512 turns here).
    const movedPerWrite = writes.map((w) => (w.upsert ?? []).filter((u) => u.record.tier === "mid").length);
    expect(Math.max(...movedPerWrite)).toBeLessThanOrEqual(2 * 256 + 256);
    expect(writes.length).toBeGreaterThan(10);
    // Progress is reported step by step, and reaches the end of each stage.
    const eviction = progress.filter((p) => p.stage === "short-term eviction");
    expect(eviction.length).toBeGreaterThanOrEqual(4);
    expect(eviction.at(-1)).toMatchObject({ done: eviction.at(-1)?.total });
    // The short-term backlog is read once (plus small reads per step), not once per step.
    expect(scanned()).toBeLessThan(5 * turns.length);
  });

  it("keeps its lease through minutes of work: another worker on the file cannot take the job meanwhile", async () => {
    // The engine's clock runs 30 s further each time the event loop gets a turn during the work, and the
    // lease keeper's 20 s beat (a fake interval) fires with it; a second connection to the file, as a
    // second process's worker, tries to claim the tiers job at each of those times.
    const path = join(dir, `lease${++n}.db`);
    let now = Date.parse("2026-03-01T00:00:00Z");
    const engram = await createEngram({
      path,
      embedder: hashEmbeddingModel(),
      background: false,
      clock: () => new Date(now),
    });
    open.push(engram);
    await engram.add({ userId: "u", messages: turns });
    const rival = new SqliteStorage({ path });
    const taken: string[] = [];
    let turnsOfLoop = 0;
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      let running = true;
      const ticker = (async () => {
        while (running) {
          await new Promise((resolve) => setTimeout(resolve, 0));
          if (!running) break;
          turnsOfLoop++;
          now += 30_000;
          vi.advanceTimersByTime(30_000);
          const claimed = await rival.claimJobs({
            now: new Date(now).toISOString(),
            limit: 1,
            leaseMs: 60_000,
            types: ["tiers"],
          });
          taken.push(...claimed.map((j) => j.id));
        }
      })();
      const report = await engram.flush().finally(() => {
        running = false;
      });
      await ticker;
      expect(report).toMatchObject({ completed: 1, failed: 0 });
    } finally {
      vi.useRealTimers();
      await rival.close();
    }
    // Minutes in the engine's time (two leases at least), and the job never changed hands.
    expect(turnsOfLoop).toBeGreaterThanOrEqual(4);
    expect(taken).toEqual([]);
    expect(await engram.jobs({ userId: "u", status: "done" })).toHaveLength(1);
  });

  it("stopped after any step and run again, ends exactly as a run that was never stopped", async () => {
    const reference = await plainEngram();
    await reference.add({ userId: "u", messages: turns });
    await reference.flush();
    const expected = await tierState(reference);

    for (const stopAt of [1, 3, 6]) {
      const engram = await plainEngram();
      await engram.add({ userId: "u", messages: turns });
      const controller = new AbortController();
      let steps = 0;
      const stopped = engram.flush({
        signal: controller.signal,
        onProgress: () => {
          if (++steps === stopAt) controller.abort(new Error(`stopped after step ${stopAt}`));
        },
      });
      await expect(stopped).rejects.toThrow(`stopped after step ${stopAt}`);
      // Stopped part-way: the job is queued again, due now, with what it finished stored.
      expect(await engram.jobs({ userId: "u", status: "queued" })).toHaveLength(1);
      expect(await tierState(engram)).not.toEqual(expected);
      await engram.flush();
      expect(await tierState(engram)).toEqual(expected);
    }
  });
});
