import { join } from "node:path";
import { createEngram, type Engram, EngramError } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { makeTempDir } from "./support/temp-dir.js";

const USERS = ["ana", "bo", "cy", "dee"] as const;
/** One shared vocabulary, so every user's searches would match other users' memories if scope leaked. */
const WORDS = ["apple", "river", "piano", "garden", "coffee", "winter", "train", "lantern"] as const;

type Action =
  | { op: "add"; user: number; words: string[] }
  | { op: "search"; user: number; words: string[] }
  | { op: "list" | "export"; user: number }
  | { op: "get" | "delete" | "history"; user: number; pick: number }
  | { op: "update"; user: number; pick: number; words: string[] };

const user = fc.integer({ min: 0, max: USERS.length - 1 });
const words = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 });
const pick = fc.nat();
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant("add" as const), user, words }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("search" as const), user, words }) },
  fc.record({ op: fc.constantFrom("list" as const, "export" as const), user }),
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constantFrom("get" as const, "delete" as const, "history" as const),
      user,
      pick,
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("update" as const), user, pick, words }) },
);

/** What the test believes is stored: every id ever created, its owner, and its live state. */
interface Known {
  owner: string;
  text: string;
  version: number;
  alive: boolean;
}

class Model {
  readonly known = new Map<string, Known>();
  liveIds(owner: string): string[] {
    return [...this.known]
      .filter(([, k]) => k.alive && k.owner === owner)
      .map(([id]) => id)
      .sort();
  }
  pickId(n: number): string | undefined {
    const ids = [...this.known.keys()];
    return ids.length === 0 ? undefined : ids[n % ids.length];
  }
}

async function expectNotFound(call: Promise<unknown>): Promise<void> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(EngramError.isInstance(error) && error.code).toBe("NOT_FOUND");
}

/** The owner still sees the memory exactly as the model says: a foreign call changed nothing. */
async function expectIntact(engram: Engram, model: Model, id: string): Promise<void> {
  const known = model.known.get(id);
  if (!known?.alive) return;
  const record = await engram.memories.get({ userId: known.owner, id });
  expect([record.userId, record.text, record.version]).toEqual([known.owner, known.text, known.version]);
}

async function readsOwnOnly(engram: Engram, model: Model, a: Action, userId: string): Promise<void> {
  if (a.op === "search") {
    const results = await engram.search({ userId, query: a.words.join(" "), limit: 50 });
    for (const r of results) {
      expect(r.memory.userId).toBe(userId);
      expect(model.known.get(r.id)?.owner).toBe(userId);
    }
  } else if (a.op === "list") {
    const listed = await engram.memories.list({ userId, limit: 1000 });
    expect(listed.every((r) => r.userId === userId)).toBe(true);
    expect(listed.map((r) => r.id).sort()).toEqual(model.liveIds(userId));
  } else if (a.op === "export") {
    const dump = await engram.export({ userId });
    expect(dump.userId).toBe(userId);
    expect(dump.memories.map((m) => m.id).sort()).toEqual(model.liveIds(userId));
    for (const row of [...dump.memories, ...dump.history, ...dump.edges]) expect(row.userId).toBe(userId);
  }
}

async function byId(
  engram: Engram,
  model: Model,
  a: Action & { pick: number },
  userId: string,
): Promise<void> {
  const id = model.pickId(a.pick);
  if (id === undefined) return;
  const known = model.known.get(id) as Known;
  const mine = known.alive && known.owner === userId;
  if (!mine) {
    if (a.op === "get") await expectNotFound(engram.memories.get({ userId, id }));
    if (a.op === "history") await expectNotFound(engram.memories.history({ userId, id }));
    if (a.op === "delete") await expectNotFound(engram.memories.delete({ userId, id }));
    if (a.op === "update") await expectNotFound(engram.memories.update({ userId, id, text: "taken over" }));
    await expectIntact(engram, model, id);
    return;
  }
  if (a.op === "get") expect((await engram.memories.get({ userId, id })).text).toBe(known.text);
  if (a.op === "history") {
    const versions = await engram.memories.history({ userId, id });
    expect(versions.map((v) => [v.userId, v.memoryId])).toEqual(versions.map(() => [userId, id]));
    expect(versions).toHaveLength(known.version);
  }
  if (a.op === "delete") {
    await engram.memories.delete({ userId, id });
    known.alive = false;
  }
  if (a.op === "update" && "words" in a) {
    known.text = `${a.words.join(" ")} edited`;
    known.version += 1;
    expect((await engram.memories.update({ userId, id, text: known.text })).version).toBe(known.version);
  }
}

async function apply(engram: Engram, model: Model, a: Action, users: readonly string[]): Promise<void> {
  const userId = users[a.user] as string;
  if (a.op === "add") {
    const text = `${userId} says ${a.words.join(" ")}`;
    const { ids } = await engram.add({ userId, messages: [{ role: "user", content: text }] });
    for (const id of ids) model.known.set(id, { owner: userId, text, version: 1, alive: true });
  } else if ("pick" in a) {
    await byId(engram, model, a, userId);
  } else {
    await readsOwnOnly(engram, model, a, userId);
  }
}

// One store for every run: each run's users are new names, so earlier runs' memories are other users' too.
const dir = makeTempDir("engram-isolation-");
let engram: Engram;
beforeAll(async () => {
  engram = await createEngram({ path: join(dir.path, "engram.db"), embedder: hashEmbeddingModel() });
});
afterAll(async () => {
  await engram.close();
  dir.remove();
});
let run = 0;

it("no read crosses users, and no user can read, edit or delete another's memory", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 30 }), async (actions) => {
      run += 1;
      const users = USERS.map((name) => `${name}-${run}`);
      const model = new Model();
      for (const a of actions) await apply(engram, model, a, users);
      for (const [index, userId] of users.entries()) {
        await readsOwnOnly(engram, model, { op: "list", user: index }, userId);
        expect((await engram.stats({ userId })).memories).toBe(model.liveIds(userId).length);
      }
    }),
    { numRuns: 60 },
  );
});
