import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCliCaptured } from "@engram/cli";
import { createEngram, type Engram } from "@engram/core";
import { hashEmbeddingModel, storageOf } from "@engram/core/testing";
import { afterAll, expect, it, vi } from "vitest";
import { spawnNode, TEST_DIR } from "./support/spawn-node.js";
import { makeTempDir, sqliteFiles } from "./support/temp-dir.js";

/** A's id and words that occur nowhere else: finding any of their bytes in the files means A's data survived. */
const A = "Aquamarinequokka";
const A_WORDS = [
  A,
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
  const userId = A;
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

/** Small tiers, so A's words also reach segments, facts and their history before the forget. */
const openStore = (dbPath: string) =>
  createEngram({
    path: dbPath,
    embedder: hashEmbeddingModel(),
    background: false,
    policy: { shortTermCapacity: 2, evictionBatch: 2, heatThreshold: 1 },
  });

it("forget leaves none of the user's bytes in the database, WAL or shared-memory files", async () => {
  const dbPath = join(dir.path, "engram.db");
  const engram = await openStore(dbPath);
  await engram.add({
    userId: "B",
    messages: [{ role: "user", content: "Kilimanjarobiscuit and pomegranatewhistle" }],
  });
  await writeUserA(engram);
  await engram.add({ userId: "B", messages: [{ role: "user", content: "A Vladivostokcanoe trip" }] });
  await engram.search({ userId: "B", query: "Kilimanjarobiscuit" });
  await engram.flush();
  expect((await engram.stats({ userId: A })).byKind).toMatchObject({ trace: 3, skill: 1 });
  expect((await engram.stats({ userId: A })).byKind.segment ?? 0).toBeGreaterThan(0);
  // The scan must see A's words before forgetting, or finding nothing later would prove nothing.
  expect(A_WORDS.filter((w) => findInFiles(dbPath, w).length === 0)).toEqual([]);

  const report = await engram.forget({ userId: A });
  expect(report.memories).toBeGreaterThan(84); // 84 messages plus their segments (and any facts)
  expect(report).toMatchObject({ kv: 1, erasure: { state: "erased" } });
  expect(report.jobs).toBeGreaterThanOrEqual(1);
  expect(await engram.users()).toEqual(["B"]);
  expect(await engram.stats({ userId: A })).toMatchObject({
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

/** Another process that reads the store and holds its snapshot until `release()`. */
async function holdRead(dbPath: string) {
  const reader = spawnNode(join(TEST_DIR, "support", "hold-read.ts"), [dbPath]);
  await reader.waitFor("reading");
  return {
    async release() {
      reader.child.stdin.write("done\n");
      expect(await reader.exited).toBe(0);
    },
  };
}

async function storeWithA(dbPath: string): Promise<Engram> {
  const engram = await openStore(dbPath);
  await engram.add({ userId: "B", messages: [{ role: "user", content: "Kilimanjarobiscuit" }] });
  await writeUserA(engram);
  await engram.flush();
  return engram;
}

it("forget beside another process's open read says the erasure is pending, and completes it once the read ends", async () => {
  const dbPath = join(dir.path, "reader.db");
  const engram = await storeWithA(dbPath);
  const reader = await holdRead(dbPath);
  const report = await engram.forget({ userId: A });
  // Gone from every read at once, and honest about the bytes the reader's snapshot still pins.
  expect(await engram.users()).toEqual(["B"]);
  expect(report.erasure).toMatchObject({ state: "pending", reason: expect.stringMatching(/older snapshot/) });
  expect(survivingFragments(dbPath).length).toBeGreaterThan(0);
  expect((await engram.erasure({ waitMs: 0 })).state).toBe("pending");
  await reader.release();
  // The store retries by itself while open: the bytes go without another call.
  await vi.waitFor(() => expect(survivingFragments(dbPath)).toEqual([]), { timeout: 10_000, interval: 100 });
  expect(await engram.erasure()).toEqual({ state: "erased" });
  await engram.close();
  expect(survivingFragments(dbPath)).toEqual([]);
  expect(B_WORDS.slice(0, 1).filter((w) => findInFiles(dbPath, w).length === 0)).toEqual([]);
});

it("a pending erasure left by a closed process is completed by the next one that opens the store", async () => {
  const dbPath = join(dir.path, "reopen.db");
  const first = await storeWithA(dbPath);
  const reader = await holdRead(dbPath);
  expect((await first.forget({ userId: A })).erasure.state).toBe("pending");
  await first.close();
  await reader.release();
  expect(survivingFragments(dbPath).length).toBeGreaterThan(0);
  const second = await createEngram({ path: dbPath, embedder: hashEmbeddingModel(), background: false });
  expect(survivingFragments(dbPath)).toEqual([]);
  expect(await second.erasure()).toEqual({ state: "erased" });
  await second.close();
});

it("forget leaves no copy of the user's id in pages SQLite rebuilt while the user's rows were in them", async () => {
  // Interleaved users split the pages of the user-keyed indexes; a split leaves the old cells' bytes in
  // the rebuilt page's free space, which deleting the rows does not zero (only rewriting the file does).
  const dbPath = join(dir.path, "rebuilt.db");
  const engram = await createEngram({ path: dbPath, embedder: hashEmbeddingModel(), background: false });
  const users = ["Aardvarkbeta", A, "Azurecamel", "Bisonmint"];
  for (let round = 0; round < 20; round++) {
    for (const userId of users) {
      const messages = Array.from({ length: 20 }, (_, i) => ({
        role: "user" as const,
        content: `round ${round} line ${i} about things`,
      }));
      await engram.add({ userId, sessionId: `s${round}`, messages });
    }
  }
  expect(findInFiles(dbPath, A).length).toBeGreaterThan(0);
  expect((await engram.forget({ userId: A })).erasure).toEqual({ state: "erased" });
  expect(findInFiles(dbPath, A)).toEqual([]);
  expect(findInFiles(dbPath, "Azurecamel").length).toBeGreaterThan(0);
  await engram.close();
});

it("engram forget --verify fails while a reader pins the old pages, and proves the erasure once it let go", async () => {
  const dbPath = join(dir.path, "verify.db");
  const engram = await storeWithA(dbPath);
  await engram.close();
  const reader = await holdRead(dbPath);
  const forget = (...extra: string[]) =>
    runCliCaptured(["forget", "--user", A, "--db", dbPath, "--no-embed", ...extra]);
  const plain = await forget();
  expect(plain.code).toBe(0);
  expect(plain.stdout).toMatch(
    /^forgot user Aquamarinequokka: removed \d+ memories.*\nnot yet erased from disk: .*older snapshot/,
  );
  const pending = await forget("--verify", "--wait", "0");
  expect(pending.code).toBe(1);
  expect(pending.stderr).toMatch(/^engram forget: not yet erased from disk: /);
  await reader.release();
  const verified = await forget("--verify", "--json");
  expect(verified.code).toBe(0);
  expect(JSON.parse(verified.stdout)).toMatchObject({
    erasure: { state: "erased" },
    verified: { idSearched: true, scanned: expect.any(Number) },
  });
  expect(survivingFragments(dbPath)).toEqual([]);
});
