import { type Engram, EngramError } from "@engram/core";
import fc from "fast-check";
import { expect } from "vitest";
import { StoreDigest } from "../store-digest.js";
import { field, hostileString, hostileValue, input, USERS, userId, words } from "./hostile.js";

type Call = (engram: Engram, ctx: { dump: unknown }) => Promise<unknown>;

const role = field(fc.constantFrom("user", "assistant", "system", "tool"));
const time = field(fc.constantFrom("2026-01-05T10:00:00Z", "2026-03-01", new Date(0).toISOString()));
const message = input({
  role,
  content: field(words),
  at: time,
  name: field(hostileString),
  id: field(hostileString),
});
const kinds = field(fc.array(fc.constantFrom("message", "segment", "fact", "trait"), { maxLength: 3 }));
const nat = field(fc.integer({ min: -5, max: 2000 }));

/** A path into a JSON value and a value to put there: a dump taken from the store, then broken. */
function mutate(value: unknown, path: readonly number[], replacement: unknown): unknown {
  if (path.length === 0 || value === null || typeof value !== "object") return replacement;
  const keys = Object.keys(value);
  if (keys.length === 0) return replacement;
  const key = keys[(path[0] as number) % keys.length] as string;
  const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<string, unknown>;
  copy[key] = mutate((value as Record<string, unknown>)[key], path.slice(1), replacement);
  return copy;
}

const brokenDump = fc.tuple(
  fc.array(fc.nat(), { minLength: 1, maxLength: 5 }),
  fc.oneof(hostileValue, fc.constantFrom("AAAA", "AAA=", "AAAAAA==", "////", "not base64!")),
);

/** Every public call, with inputs that are mostly nearly right and sometimes anything at all. */
const calls: fc.Arbitrary<[string, Call]> = fc.oneof(
  input({
    userId,
    sessionId: field(hostileString),
    messages: field(fc.array(message, { maxLength: 3 })),
    at: time,
    embed: field(fc.constantFrom("now", "later")),
  }).map((i) => ["add", (e: Engram) => e.add(i as never)] as [string, Call]),
  input({
    userId,
    query: field(words),
    limit: nat,
    kinds,
    channels: field(fc.array(fc.constantFrom("fulltext", "vector"), { maxLength: 2 })),
    ids: field(fc.array(hostileString, { maxLength: 3 })),
    from: time,
    to: time,
  }).map((i) => ["search", (e: Engram) => e.search(i as never)] as [string, Call]),
  input({ userId, query: field(words), budgetTokens: nat, at: time }).map(
    (i) => ["retrieve", (e: Engram) => e.retrieve(i as never)] as [string, Call],
  ),
  input({
    userId,
    text: field(fc.constantFrom("actually my sister is a doctor now", "I moved to Porto")),
    at: time,
  }).map((i) => ["feedback", (e: Engram) => e.feedback(i as never)] as [string, Call]),
  input({ userId: field(fc.constantFrom("nobody-here", "carl")) }).map(
    (i) => ["forget", (e: Engram) => e.forget(i as never)] as [string, Call],
  ),
  input({ userId, at: time }).map((i) => ["profile", (e: Engram) => e.profile(i as never)] as [string, Call]),
  input({ userId }).map((i) => ["export", (e: Engram) => e.export(i as never)] as [string, Call]),
  input({ userId }).map((i) => ["stats", (e: Engram) => e.stats(i as never)] as [string, Call]),
  input({ userId, id: field(hostileString) }).map(
    (i) => ["memories.get", (e: Engram) => e.memories.get(i as never)] as [string, Call],
  ),
  input({ userId, kinds, limit: nat, offset: nat, order: field(fc.constantFrom("asc", "desc")) }).map(
    (i) => ["memories.list", (e: Engram) => e.memories.list(i as never)] as [string, Call],
  ),
  input({ userId, id: field(hostileString), text: field(words), metadata: hostileValue }).map(
    (i) => ["memories.update", (e: Engram) => e.memories.update(i as never)] as [string, Call],
  ),
  input({ userId, id: field(hostileString) }).map(
    (i) => ["memories.delete", (e: Engram) => e.memories.delete(i as never)] as [string, Call],
  ),
  input({ userId, id: field(hostileString) }).map(
    (i) => ["memories.history", (e: Engram) => e.memories.history(i as never)] as [string, Call],
  ),
  // A stored vector broken: dump.memories[at].vector (the dump's 6th key, the record's 21st).
  fc
    .tuple(fc.nat(), fc.constantFrom("AAA=", "AAAA", "", "!!", "AADAfw==", "AACAfw=="))
    .map(
      ([at, vector]) =>
        ["import", (e: Engram, c: { dump: unknown }) => e.import(mutate(c.dump, [5, at, 20], vector))] as [
          string,
          Call,
        ],
    ),
  brokenDump.map(
    ([path, value]) =>
      ["import", (e: Engram, c: { dump: unknown }) => e.import(mutate(c.dump, path, value))] as [
        string,
        Call,
      ],
  ),
);

export interface FuzzTally {
  runs: number;
  rejected: number;
  byOp: Record<string, number>;
}

/**
 * Calls the public API `runs` times with generated inputs: each call resolves, or rejects with an
 * EngramError and leaves the store's content exactly as it was. Returns how many calls were rejected.
 */
export async function fuzzPublicApi(
  engram: Engram,
  dbPath: string,
  runs: number,
  seed?: number,
): Promise<FuzzTally> {
  for (const user of USERS) {
    await engram.add({
      userId: user,
      sessionId: "s",
      messages: [
        { role: "user", content: "my sister plays the piano in winter" },
        { role: "assistant", content: "a lantern by the harbour" },
      ],
    });
  }
  const dump = await engram.export({ userId: "ana" });
  const digest = new StoreDigest(dbPath);
  const tally: FuzzTally = { runs: 0, rejected: 0, byOp: {} };
  try {
    await fc.assert(
      fc.asyncProperty(calls, async ([op, call]) => {
        tally.runs++;
        tally.byOp[op] = (tally.byOp[op] ?? 0) + 1;
        const before = digest.digest();
        const error = await call(engram, { dump }).then(
          () => null,
          (e: unknown) => e ?? new Error("rejected with nothing"),
        );
        if (error === null) return;
        tally.rejected++;
        if (!EngramError.isInstance(error))
          throw new Error(`${op} threw an untyped error: ${String(error)}`, { cause: error });
        expect(digest.digest(), `${op} rejected (${error.code}) but changed the store`).toBe(before);
      }),
      { numRuns: runs, ...(seed !== undefined ? { seed } : {}) },
    );
  } finally {
    digest.close();
  }
  return tally;
}
