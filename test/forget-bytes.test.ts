import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createEngram, type Engram } from "@engram/core";
import { hashEmbeddingModel, storageOf } from "@engram/core/testing";
import { afterAll, expect, it } from "vitest";
import { makeTempDir, sqliteFiles } from "./support/temp-dir.js";

/** Words that occur nowhere else: finding any of their bytes in the files means A's data survived. */
const A_WORDS = [
  "Quetzalfeather",
  "xylophonist",
  "Brontoville",
  "marzipanotter",
  "Smørrebrødkiosk",
  "Zebulonius",
  "tangerinevault",
  "Oberammergauer",
  "checkpointsecret",
  "jobpayloadsecret",
  "tracetasksecret",
  "skillstepsecret",
];
const B_WORDS = ["Kilimanjarobiscuit", "pomegranatewhistle", "Vladivostokcanoe"];

/** Fragments to look for: each word in its own case and lower case, and the tail of the lower-case word. */
function fragments(word: string): string[] {
  const lower = word.toLowerCase();
  return [...new Set([word, lower, lower.slice(Math.floor(lower.length / 2))])];
}

function findInFiles(dbPath: string, needle: string): string[] {
  const bytes = Buffer.from(needle, "utf8");
  return sqliteFiles(dbPath).filter((file) => existsSync(file) && readFileSync(file).includes(bytes));
}

function survivingFragments(dbPath: string): string[] {
  return A_WORDS.flatMap(fragments).flatMap((f) => findInFiles(dbPath, f).map((file) => `${f} in ${file}`));
}

async function writeUserA(engram: Engram): Promise<void> {
  const userId = "A";
  await engram.add({
    userId,
    sessionId: "s1",
    messages: [
      { role: "user", content: "I keep a Quetzalfeather on my desk", name: "Zebulonius" },
      { role: "assistant", content: "A xylophonist from Brontoville told me about it" },
      { role: "user", content: "My cat is a marzipanotter", metadata: { shop: "Smørrebrødkiosk" } },
    ],
  });
  // Enough text to spread A's rows and index entries over many pages, interleaved with B's below.
  const filler = Array.from({ length: 80 }, (_, i) => ({
    role: "user" as const,
    content: `note ${i}: the ${A_WORDS[i % A_WORDS.length]} diary entry number ${i} ${"lorem ".repeat(i % 7)}`,
  }));
  await engram.add({ userId, sessionId: "s2", messages: filler });
  const { ids } = await engram.add({
    userId,
    messages: [{ role: "user", content: "The tangerinevault is open" }],
  });
  await engram.memories.update({ userId, id: ids[0] as string, text: "The Oberammergauer moved in" });
  await storageOf(engram).write(
    { userId },
    {
      kvPut: [{ namespace: ["thread", "checkpointsecret"], key: "cp", value: '{"note":"checkpointsecret"}' }],
      jobs: [
        {
          id: "job-a",
          type: "embed",
          payload: { note: "jobpayloadsecret" },
          runAt: new Date().toISOString(),
        },
      ],
    },
  );
  // Three runs of one task: traces, and the skill distilled from them (its steps keep the fixed value).
  for (const n of [1, 2, 3]) {
    await engram.traces.add({
      userId,
      task: `Order ${n} boxes of tracetasksecret for the office`,
      steps: [{ tool: "order", args: { item: "skillstepsecret", count: n }, result: { ok: true } }],
    });
  }
  await engram.search({ userId, query: "xylophonist Quetzalfeather" });
  await engram.export({ userId });
}

const dir = makeTempDir("engram-forget-");
afterAll(() => dir.remove());

it("forget leaves none of the user's bytes in the database, WAL or shared-memory files", async () => {
  const dbPath = join(dir.path, "engram.db");
  // Small tiers, so A's words also reach segments, facts and their history before the forget.
  const engram = await createEngram({
    path: dbPath,
    embedder: hashEmbeddingModel(),
    background: false,
    policy: { shortTermCapacity: 2, evictionBatch: 2, heatThreshold: 1 },
  });
  await engram.add({
    userId: "B",
    messages: [{ role: "user", content: "Kilimanjarobiscuit and pomegranatewhistle" }],
  });
  await writeUserA(engram);
  await engram.add({ userId: "B", messages: [{ role: "user", content: "A Vladivostokcanoe trip" }] });
  await engram.search({ userId: "B", query: "Kilimanjarobiscuit" });
  await engram.flush();
  expect((await engram.stats({ userId: "A" })).byKind).toMatchObject({ trace: 3, skill: 1 });
  expect((await engram.stats({ userId: "A" })).byKind.segment ?? 0).toBeGreaterThan(0);
  // The scan must see A's words before forgetting, or finding nothing later would prove nothing.
  expect(A_WORDS.filter((w) => findInFiles(dbPath, w).length === 0)).toEqual([]);

  const report = await engram.forget({ userId: "A" });
  expect(report.memories).toBeGreaterThan(84); // 84 messages plus their segments (and any facts)
  expect(report).toMatchObject({ kv: 1 });
  expect(report.jobs).toBeGreaterThanOrEqual(1);
  expect(await engram.users()).toEqual(["B"]);
  expect(await engram.stats({ userId: "A" })).toMatchObject({
    memories: 0,
    vectors: 0,
    history: 0,
    kv: 0,
    jobs: {},
  });
  expect((await engram.stats()).memories).toBe(2);
  // forget() itself must remove the bytes: checked while the store is still open, then after close.
  expect(survivingFragments(dbPath)).toEqual([]);
  await engram.close();
  expect(survivingFragments(dbPath)).toEqual([]);
  expect(B_WORDS.filter((w) => findInFiles(dbPath, w).length === 0)).toEqual([]);
});
