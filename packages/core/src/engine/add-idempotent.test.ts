import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ScopeError, ValidationError } from "../errors/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import { createEngram, type EngramOptions } from "./create-engram.js";
import type { Engram } from "./engram.js";
import type { AddInput } from "./schemas.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tempEngram(options: EngramOptions = {}): Promise<Engram> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-idempotent-"));
  const engram = await createEngram({
    background: false,
    path: path.join(dir, "engram.db"),
    embedder: hashEmbeddingModel(),
    clock: () => new Date("2026-03-01T09:00:00.000Z"),
    ...options,
  });
  cleanups.push(async () => {
    await engram.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return engram;
}

/** A conversation with times, long enough for the tiers to move some of it to mid-term. */
function conversation(turns: number): AddInput {
  return {
    userId: "u1",
    sessionId: "s1",
    messages: Array.from({ length: turns }, (_, i) => ({
      role: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
      content: `turn ${i}: we planned the ferry trip to the island, day ${i % 5}`,
      at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    })),
  };
}

describe("add, repeated", () => {
  it("retried with the same messages stores nothing twice, even after the tiers moved them", async () => {
    const engram = await tempEngram({ policy: { shortTermCapacity: 2, evictionBatch: 1 } });
    const first = await engram.add(conversation(20));
    expect(first.added).toBe(20);
    await engram.flush();
    const before = await engram.stats();
    expect(before.byTier.mid).toBeGreaterThan(0);
    const moved = await engram.memories.list({ userId: "u1", tiers: ["mid"], kinds: ["message"] });

    const again = await engram.add(conversation(20));
    expect(again.ids).toEqual(first.ids);
    expect(again.added).toBe(0);
    expect(again.status).toBe("ready");
    await engram.flush();
    expect(await engram.stats()).toEqual(before);
    // The stored turns are left as they were: still mid-term, not put back into short-term.
    expect(await engram.memories.list({ userId: "u1", tiers: ["mid"], kinds: ["message"] })).toEqual(moved);
    expect(again.memories.filter((m) => m.tier === "mid").length).toBe(moved.length);
  });

  it("two instances adding the same turns at once store them once, and only one reports them added", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-idempotent-"));
    const file = path.join(dir, "shared.db");
    const a = await tempEngram({ path: file, tiers: false });
    const b = await tempEngram({ path: file, tiers: false });
    // Cleanups run in order: this one after both engines have closed.
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const [first, second] = await Promise.all([a.add(conversation(8)), b.add(conversation(8))]);
    expect(first?.ids).toEqual(second?.ids);
    expect((first?.added ?? 0) + (second?.added ?? 0)).toBe(8);
    expect((await a.stats()).memories).toBe(8);
    expect((await a.stats()).history).toBe(8);
    expect(second?.memories.map((m) => m.createdAt)).toEqual(first?.memories.map((m) => m.createdAt));
  });

  it("stores only the new turns of a call that repeats earlier ones", async () => {
    const engram = await tempEngram({ tiers: false });
    const whole = conversation(6);
    await engram.add({ ...whole, messages: whole.messages.slice(0, 4) });
    const result = await engram.add(whole);
    expect(result.added).toBe(2);
    expect((await engram.stats()).memories).toBe(6);
    expect((await engram.stats()).history).toBe(6);
  });

  it("keeps the same words said twice at the same time in one call as two turns, and a retry as two", async () => {
    const engram = await tempEngram({ tiers: false });
    const at = "2026-01-01T10:00:00Z";
    const input: AddInput = {
      userId: "u1",
      sessionId: "s1",
      messages: [
        { role: "user", content: "ok", at },
        { role: "user", content: "ok", at },
        { role: "user", content: "ok", at: "2026-01-01T10:05:00Z" },
      ],
    };
    const first = await engram.add(input);
    expect(new Set(first.ids).size).toBe(3);
    const again = await engram.add(input);
    expect(again.ids).toEqual(first.ids);
    expect((await engram.stats()).memories).toBe(3);
  });

  it("stores turns without a time again on every call: nothing tells them from the same words said later", async () => {
    const engram = await tempEngram({ tiers: false });
    const input: AddInput = { userId: "u1", sessionId: "s1", messages: [{ role: "user", content: "ok" }] };
    const first = await engram.add(input);
    const second = await engram.add(input);
    expect(second.ids).not.toEqual(first.ids);
    expect((await engram.stats()).memories).toBe(2);
  });

  it("takes a given id as the turn's identity, and refuses one id twice in a call", async () => {
    const engram = await tempEngram({ tiers: false });
    const input: AddInput = { userId: "u1", messages: [{ id: "turn-7", role: "user", content: "hello" }] };
    expect((await engram.add(input)).ids).toEqual(["turn-7"]);
    expect((await engram.add(input)).added).toBe(0);
    const error = await engram
      .add({
        userId: "u1",
        messages: [
          { id: "a", role: "user", content: "x" },
          { id: "a", role: "user", content: "y" },
        ],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details.path).toBe("messages.1.id");
    expect((error as ValidationError).message).toMatch(
      /^add: messages\.1\.id: repeats the id of messages\.0/,
    );
    expect((await engram.stats()).memories).toBe(1);
  });

  it("stores nothing of a call when one message's id belongs to another user", async () => {
    const engram = await tempEngram();
    await engram.add({ userId: "u2", messages: [{ id: "shared", role: "user", content: "mine" }] });
    const before = await engram.stats();
    const error = await engram
      .add({
        ...conversation(5),
        messages: [...conversation(5).messages, { id: "shared", role: "user", content: "x" }],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScopeError);
    expect(await engram.stats()).toEqual(before);
  });

  it("puts each message in its own session when messages name one, with that session's context", async () => {
    const engram = await tempEngram({ tiers: false });
    const { memories } = await engram.add({
      userId: "u1",
      sessionId: "default",
      messages: [
        { role: "user", content: "a1", sessionId: "a" },
        { role: "user", content: "b1", sessionId: "b" },
        { role: "user", content: "a2", sessionId: "a" },
        { role: "user", content: "d1" },
      ],
    });
    expect(memories.map((m) => [m.sessionId, m.context])).toEqual([
      ["a", null],
      ["b", null],
      ["a", "user: a1"],
      ["default", null],
    ]);
  });
});
