import { join } from "node:path";
import { createEngram, type Engram, type ExportDump, type StoragePort } from "@engram/core";
import { qdrantStorage } from "@engram/core/qdrant";
import { sqliteStorage } from "@engram/core/sqlite";
import { hashEmbeddingModel, storageOf } from "@engram/core/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "../qdrant-double/index.js";
import { makeTempDir } from "../support/temp-dir.js";

// Export, import into a fresh store of the other backend, export again: the two dumps are the same
// bytes once their arrays are sorted and their keys ordered. Every part of a user's data is in them:
// memories of every tier with vectors, history, edges, key-value entries with their times, store items,
// and work not done yet (a queued job and a failed one with its error).
const NOW = new Date("2026-03-01T12:00:00.000Z");
// The target's clock is a day later, so a time stamped at import instead of restored shows.
const LATER = new Date("2026-03-02T12:00:00.000Z");
const POLICY = { shortTermCapacity: 3, evictionBatch: 3, heatThreshold: 0.1 };
const TURNS = [
  "I live in Oslo with my two cats",
  "My favourite food is sushi",
  "I work as a nurse at the city hospital",
  "On weekends I go kayaking on the fjord",
  "My sister Ana paints watercolours",
  "I am training for the Porto marathon",
];

const dir = makeTempDir("engram-round-trip-");
let double: QdrantDouble;
let prefixes = 0;
const open: Engram[] = [];

beforeAll(async () => {
  double = await startQdrantDouble();
});
afterEach(async () => {
  for (const engram of open.splice(0)) await engram.close();
});
afterAll(async () => {
  await double.close();
  dir.remove();
});

type Backend = "sqlite" | "qdrant";

function storage(backend: Backend): StoragePort {
  prefixes++;
  return backend === "sqlite"
    ? sqliteStorage({ path: join(dir.path, `s${prefixes}.db`) })
    : qdrantStorage({ url: double.url, collectionPrefix: `rt${prefixes}_` });
}

async function engine(backend: Backend, now = NOW): Promise<Engram> {
  const engram = await createEngram({
    storage: storage(backend),
    embedder: hashEmbeddingModel(),
    background: false,
    policy: POLICY,
    clock: () => now,
  });
  open.push(engram);
  return engram;
}

/** One user with tier work, a correction, key-value entries, a store item and two unfinished jobs. */
async function populate(engram: Engram, userId: string): Promise<void> {
  for (let i = 0; i < TURNS.length; i += 2) {
    const messages = TURNS.slice(i, i + 2).map((content) => ({ role: "user" as const, content }));
    await engram.add({ userId, sessionId: `s${i}`, messages });
    await engram.flush();
  }
  await engram.feedback({ userId, text: "Actually I moved to Berlin" });
  await engram.flush();
  await engram.kv.write(
    { userId },
    { put: [{ namespace: ["checkpoints", "t1"], key: "cp-1", value: "{}" }] },
  );
  await engram.items.write(
    { userId },
    { put: [{ cube: ["prefs", userId], key: "theme", value: { theme: "dark" }, text: "dark theme" }] },
  );
  // Not due before the year 2100, so flush() leaves it queued; the failed one keeps its error.
  const runAt = "2100-01-01T00:00:00.000Z";
  await storageOf(engram).write(
    { userId },
    {
      jobs: [
        { id: "job_later", type: "tiers", payload: {}, dedupeKey: "tiers", runAt },
        {
          id: "job_failed",
          type: "embed",
          payload: { ids: ["m1"] },
          runAt: "2026-02-01T00:00:00.000Z",
          restore: {
            status: "failed",
            attempts: 5,
            lastError: "model timed out",
            createdAt: "2026-02-01T00:00:00.000Z",
            updatedAt: "2026-02-02T00:00:00.000Z",
          },
        },
      ],
    },
  );
}

/** The dump as text with every array sorted and every object's keys in order (less its own time). */
function canonical({ exportedAt: _, ...dump }: ExportDump): string {
  const order = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      return value.map(order).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    }
    if (value && typeof value === "object") {
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, order((value as Record<string, unknown>)[k])]),
      );
    }
    return value;
  };
  return JSON.stringify(order(dump));
}

describe.each([
  ["sqlite", "qdrant"],
  ["qdrant", "sqlite"],
] as const)("export from %s, import into %s, export again", (from, to) => {
  it("gives the same dump, byte for byte after sorting", async () => {
    const source = await engine(from);
    await populate(source, "u1");
    const first = await source.export({ userId: "u1" });
    // The dump holds every part, so the comparison below covers it.
    expect(new Set(first.memories.map((m) => m.tier))).toEqual(new Set(["short", "mid", "long"]));
    expect(first.memories.some((m) => m.kind === "item")).toBe(true);
    expect(first.memories.every((m) => m.vector !== null || m.status === "pending")).toBe(true);
    expect(first.history.some((h) => h.event !== "create")).toBe(true);
    expect(first.edges.length).toBeGreaterThan(0);
    expect(first.kv.map((e) => e.key).sort()).toContain("cp-1");
    expect(first.jobs.map((j) => [j.id, j.status]).sort()).toEqual([
      ["job_failed", "failed"],
      ["job_later", "queued"],
    ]);

    const target = await engine(to, LATER);
    await target.import(JSON.parse(JSON.stringify(first)));
    const second = await target.export({ userId: "u1" });
    expect(canonical(second)).toBe(canonical(first));
    expect(await target.items.get({ userId: "u1" }, ["prefs", "u1"], "theme")).toMatchObject({
      metadata: { value: { theme: "dark" } },
    });
  });
});
