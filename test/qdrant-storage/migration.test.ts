import { join } from "node:path";
import { runCliCaptured } from "@engram/cli";
import { createEngram, type Engram, type ExportDump } from "@engram/core";
import { qdrantStorage } from "@engram/core/qdrant";
import { hashEmbeddingModel, storageOf } from "@engram/core/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "../qdrant-double/index.js";
import { makeTempDir } from "../support/temp-dir.js";

/** Turns that overflow short-term memory (capacity 3) into mid-term segments and carry extractable facts. */
const TURNS: Record<string, string[]> = {
  u1: [
    "I live in Oslo with my two cats",
    "My favourite food is sushi",
    "I work as a nurse at the city hospital",
    "On weekends I go kayaking on the fjord",
    "My sister Ana paints watercolours",
    "I am training for the Porto marathon",
    "I started learning Italian last month",
    "We adopted a third cat called Miso",
  ],
  u2: [
    "I am a teacher in Lyon",
    "I play the cello in an amateur orchestra",
    "My son just started school",
    "I like hiking in the Alps",
    "I drive an old blue Volvo",
    "My favourite book is Dune",
  ],
  "team/u3": ["I keep bees on my balcony", "The honey harvest was small this year", "I love jazz"],
};
const FEEDBACK: Record<string, string> = {
  u1: "Actually I moved to Berlin",
  u2: "Actually I teach in Grenoble now",
};
const POLICY = { shortTermCapacity: 3, evictionBatch: 3, heatThreshold: 0.1 };

const dir = makeTempDir("engram-migration-");
let double: QdrantDouble;
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

async function engine(options: Parameters<typeof createEngram>[0]): Promise<Engram> {
  const engram = await createEngram({ background: false, policy: POLICY, ...options });
  open.push(engram);
  return engram;
}

/** A SQLite store with turns, tier work done, feedback (history, supersession) and key-value entries. */
async function sqliteSource(path: string, embedder: ReturnType<typeof hashEmbeddingModel> | null) {
  const from = await engine({ path, embedder });
  for (const [userId, turns] of Object.entries(TURNS)) {
    for (let i = 0; i < turns.length; i += 2) {
      await from.add({
        userId,
        sessionId: `s${i}`,
        messages: turns.slice(i, i + 2).map((content) => ({ role: "user" as const, content })),
      });
      await from.flush();
    }
    const correction = FEEDBACK[userId];
    if (correction) await from.feedback({ userId, text: correction });
    await storageOf(from).write(
      { userId },
      {
        kvPut: [
          { namespace: ["checkpoints", "thread-1"], key: "cp-1", value: JSON.stringify({ step: 1 }) },
          { namespace: ["store", "prefs"], key: "theme", value: `"dark-${userId}"` },
        ],
      },
    );
  }
  await from.flush();
  return from;
}

function comparable(dump: ExportDump) {
  const { exportedAt: _time, ...rest } = dump;
  const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
  return {
    ...rest,
    memories: [...rest.memories].sort(byId),
    history: [...rest.history].sort((a, b) =>
      `${a.memoryId}:${a.version}`.localeCompare(`${b.memoryId}:${b.version}`),
    ),
    edges: [...rest.edges].sort((a, b) =>
      `${a.from}${a.to}${a.type}`.localeCompare(`${b.from}${b.to}${b.type}`),
    ),
    kv: [...rest.kv].sort((a, b) =>
      `${a.namespace.join("/")}:${a.key}`.localeCompare(`${b.namespace.join("/")}:${b.key}`),
    ),
  };
}

/** What the issue asks to survive the move: ids, texts, kinds, tiers, statuses and versions. */
function summary(dump: ExportDump) {
  return comparable(dump).memories.map((m) => [m.id, m.text, m.kind, m.tier, m.status, m.version].join("|"));
}

describe("migration from the SQLite file to Qdrant", () => {
  it("export of every user, then import into a Qdrant store, keeps memories, history, edges, kv and search", async () => {
    const from = await sqliteSource(join(dir.path, "lib.db"), hashEmbeddingModel());
    const to = await engine({
      storage: qdrantStorage({ url: double.url, collectionPrefix: "mig_" }),
      embedder: hashEmbeddingModel(),
    });
    const users = await from.users();
    expect(users.sort()).toEqual(Object.keys(TURNS).sort());
    // The loop of docs/qdrant.md, "Migration from the SQLite file".
    for (const userId of await from.users()) await to.import(await from.export({ userId }));
    expect((await to.users()).sort()).toEqual(users);

    for (const userId of users) {
      const before = await from.export({ userId });
      const after = await to.export({ userId });
      expect(summary(after)).toEqual(summary(before));
      // Vectors kept (same embedder), history, edges and key-value entries identical.
      expect(comparable(after)).toEqual(comparable(before));
      expect(after.kv).toHaveLength(2);
      for (const query of ["where do I live", "cats", "favourite"]) {
        const a = await from.search({ userId, query, limit: 5 });
        const b = await to.search({ userId, query, limit: 5 });
        // The parity the backends promise (docs/qdrant.md, Full text): the same memories and the same best
        // hit. Close scores may trade places, as their BM25 differs in avgdl and IDF.
        expect(b.map((r) => r.id).sort()).toEqual(a.map((r) => r.id).sort());
        expect(b[0]?.id).toBe(a[0]?.id);
      }
    }
    // The store really had tier work, feedback and supersession to move.
    const u1 = (await from.export({ userId: "u1" })).memories;
    expect(new Set(u1.map((m) => m.tier))).toEqual(new Set(["short", "mid", "long"]));
    expect(u1.some((m) => m.expiredAt !== null)).toBe(true); // superseded by the feedback
    expect((await from.export({ userId: "u1" })).history.some((h) => h.event !== "create")).toBe(true);
    expect((await from.export({ userId: "u1" })).edges.length).toBeGreaterThan(0);
    // Finished jobs are not exported and stay behind; everything else is counted alike.
    const { jobs: _jobs, ...counts } = await from.stats({ userId: "u1" });
    expect(await to.stats({ userId: "u1" })).toMatchObject(counts);
  });

  it("the same through the CLI: engram export --db, then engram import --qdrant-url", async () => {
    const db = join(dir.path, "cli.db");
    await (await sqliteSource(db, null)).close();
    open.length = 0;
    const env = { ENGRAM_QDRANT_PREFIX: "cli_" };
    for (const userId of Object.keys(TURNS)) {
      const out = join(dir.path, `${userId.replace("/", "_")}.json`);
      const exported = await runCliCaptured(
        ["export", "--db", db, "--user", userId, "--out", out, "--no-embed"],
        { env },
      );
      expect(exported.stderr).toBe("");
      expect(exported.code).toBe(0);
      const imported = await runCliCaptured(
        ["import", out, "--qdrant-url", double.url, "--no-embed", "--json"],
        { env },
      );
      expect(imported.stderr).toBe("");
      expect(JSON.parse(imported.stdout)).toMatchObject({ userId, reembedded: 0 });
    }
    const from = await engine({ path: db, embedder: null });
    const to = await engine({
      storage: qdrantStorage({ url: double.url, collectionPrefix: "cli_" }),
      embedder: null,
    });
    expect((await to.users()).sort()).toEqual(Object.keys(TURNS).sort());
    for (const userId of Object.keys(TURNS)) {
      const before = await from.export({ userId });
      const after = await to.export({ userId });
      expect(comparable(after)).toEqual(comparable(before));
      const a = (await from.search({ userId, query: "where do I live", limit: 5 })).map((r) => r.id);
      const b = (await to.search({ userId, query: "where do I live", limit: 5 })).map((r) => r.id);
      // The same memories found, the same one first. Below it the order may differ: the backends' BM25
      // scores differ a little (docs/qdrant.md), and the role prior lifts the user's turns by a fixed
      // amount, which can pass a segment on one backend and not on the other.
      expect(b[0]).toBe(a[0]);
      expect([...b].sort()).toEqual([...a].sort());
    }
  });
});
