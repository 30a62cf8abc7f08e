import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ValidationError } from "../errors/index.js";
import { messageId, sequentialIds } from "../model/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import { createEngram, type EngramOptions } from "./create-engram.js";
import type { Engram } from "./engram.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const START = Date.parse("2026-03-01T09:00:00.000Z");
/** A clock that moves one second per reading, so each add has its own time. */
function tickingClock(): () => Date {
  let t = START;
  return () => {
    t += 1000;
    return new Date(t);
  };
}

async function tempEngram(options: EngramOptions = {}): Promise<Engram> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-add-"));
  const engram = await createEngram({
    tiers: false,
    background: false,
    path: path.join(dir, "engram.db"),
    embedder: hashEmbeddingModel(),
    clock: tickingClock(),
    ids: sequentialIds(),
    ...options,
  });
  cleanups.push(async () => {
    await engram.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return engram;
}

async function validationError(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

describe("add", () => {
  it("stores each turn as a ready message memory, searchable at once", async () => {
    const engram = await tempEngram();
    const result = await engram.add({
      userId: "u1",
      sessionId: "s1",
      messages: [
        { role: "user", content: "  I moved to Lisbon in May  ", name: "Ana", metadata: { mood: "happy" } },
        { role: "assistant", content: "How is Lisbon treating you?", at: "2026-02-01T10:00:00+01:00" },
      ],
    });
    // A turn with a time has its content identity for an id; one without takes the next id of the seam.
    const timed = messageId({
      userId: "u1",
      cube: ["user", "u1"],
      sessionId: "s1",
      role: "assistant",
      at: "2026-02-01T09:00:00.000Z",
      text: "How is Lisbon treating you?",
      repeat: 0,
    });
    expect(result.ids).toEqual(["mem_1", timed]);
    expect(result.status).toBe("ready");
    const [first, second] = result.memories;
    expect(first).toMatchObject({
      id: "mem_1",
      userId: "u1",
      cube: ["user", "u1"],
      sessionId: "s1",
      agentId: null,
      kind: "message",
      tier: "short",
      role: "user",
      name: "Ana",
      text: "I moved to Lisbon in May",
      metadata: { mood: "happy" },
      status: "ready",
      version: 1,
      validFrom: "2026-03-01T09:00:01.000Z",
      createdAt: "2026-03-01T09:00:01.000Z",
      expiredAt: null,
    });
    expect(second?.validFrom).toBe("2026-02-01T09:00:00.000Z");
    expect(await engram.memories.get({ userId: "u1", id: "mem_1" })).toEqual(first);

    const hits = await engram.search({ userId: "u1", query: "Lisbon" });
    expect(hits.map((h) => h.id).sort()).toEqual(["mem_1", timed].sort());
    expect((await engram.stats({ userId: "u1" })).vectors).toBe(2);
    expect(await engram.memories.history({ userId: "u1", id: timed })).toEqual([
      expect.objectContaining({ version: 1, event: "create", text: "How is Lisbon treating you?" }),
    ]);
  });

  it("uses the call's `at` for turns without their own", async () => {
    const engram = await tempEngram();
    const { memories } = await engram.add({
      userId: "u1",
      at: new Date("2025-12-24T18:00:00Z"),
      messages: [
        { role: "user", content: "a" },
        { role: "user", content: "b", at: "2025-12-25" },
      ],
    });
    expect(memories.map((m) => m.validFrom)).toEqual([
      "2025-12-24T18:00:00.000Z",
      "2025-12-25T00:00:00.000Z",
    ]);
  });

  it("gives each turn the line before it in its session as context, never the previous session's", async () => {
    const engram = await tempEngram();
    const first = await engram.add({
      userId: "u1",
      sessionId: "s1",
      messages: [
        { role: "user", content: "My sister is visiting", name: "Ana" },
        { role: "assistant", content: "When does she arrive?" },
      ],
    });
    expect(first.memories.map((m) => m.context)).toEqual([null, "Ana: My sister is visiting"]);

    const later = await engram.add({
      userId: "u1",
      sessionId: "s1",
      messages: [{ role: "user", content: "Friday" }],
    });
    expect(later.memories[0]?.context).toBe("assistant: When does she arrive?");

    const next = await engram.add({
      userId: "u1",
      sessionId: "s2",
      messages: [{ role: "user", content: "Hello again" }],
    });
    expect(next.memories[0]?.context).toBeNull();

    // Another user's session of the same name is not theirs either.
    const other = await engram.add({
      userId: "u2",
      sessionId: "s1",
      messages: [{ role: "user", content: "Hi" }],
    });
    expect(other.memories[0]?.context).toBeNull();

    // The context is searched with the turn: "sister" finds the reply that follows it.
    const hits = await engram.search({
      userId: "u1",
      query: "sister",
      channels: ["fulltext"],
      kinds: ["message"],
    });
    expect(hits.map((h) => h.id).sort()).toEqual(["mem_1", "mem_2"]);
  });

  it("stores no context when the context window is off", async () => {
    const engram = await tempEngram({ contextWindow: false });
    const { memories } = await engram.add({
      userId: "u1",
      sessionId: "s1",
      messages: [
        { role: "user", content: "one" },
        { role: "user", content: "two" },
      ],
    });
    expect(memories.map((m) => m.context)).toEqual([null, null]);
  });

  it("names the field at fault and stores nothing on bad input", async () => {
    const engram = await tempEngram();
    const ok = { role: "user", content: "hello" } as const;
    const cases: Array<[unknown, string, RegExp]> = [
      [{ messages: [ok] }, "userId", /^add: userId: /],
      [{ userId: "  ", messages: [ok] }, "userId", /^add: userId: must not be empty/],
      [{ userId: "u1", messages: [] }, "messages", /^add: messages: pass at least one message/],
      [{ userId: "u1" }, "messages", /^add: messages: /],
      [
        { userId: "u1", messages: [{ role: "robot", content: "x" }] },
        "messages.0.role",
        /expected role to be one of user, assistant, system, tool/,
      ],
      [
        { userId: "u1", messages: [ok, { role: "user", content: "   " }] },
        "messages.1.content",
        /content must not be empty/,
      ],
      [
        { userId: "u1", messages: [{ ...ok, at: "last tuesday" }] },
        "messages.0.at",
        /expected an ISO 8601 time/,
      ],
      [{ userId: "u1", at: "soon", messages: [ok] }, "at", /^add: at: expected an ISO 8601 time/],
      // Ids are listed one a line: a control character would split one or disguise it as another.
      [
        { userId: "alice\nmallory", messages: [ok] },
        "userId",
        /^add: userId: must not hold control characters, line separators or bidi controls \(U\+000A at index 5\)/,
      ],
      [{ userId: "eve\u001b[2K\u001b[1Gbob", messages: [ok] }, "userId", /\(U\+001B at index 3\)/],
      [{ userId: "u1", agentId: "a\u009b1", messages: [ok] }, "agentId", /\(U\+009B at index 1\)/],
      [{ userId: "u1", sessionId: "s\u20281", messages: [ok] }, "sessionId", /U\+2028/],
      [{ userId: "u1", cube: ["project", "p\u202E7"], messages: [ok] }, "cube.1", /U\+202E/],
      [{ userId: "u1", messages: [{ ...ok, id: "m\u007f" }] }, "messages.0.id", /U\+007F/],
      [{ userId: "u1", messages: [{ ...ok, sessionId: "s\u0000" }] }, "messages.0.sessionId", /U\+0000/],
    ];
    for (const [input, field, message] of cases) {
      const error = await validationError(engram.add(input as Parameters<Engram["add"]>[0]));
      expect(error.details.path).toBe(field);
      expect(error.message).toMatch(message);
      expect(error.code).toBe("INVALID_INPUT");
    }
    expect((await engram.stats()).memories).toBe(0);
  });
});
