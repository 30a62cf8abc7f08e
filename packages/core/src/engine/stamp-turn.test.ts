import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ValidationError } from "../errors/index.js";
import { messageId } from "../model/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import { createEngram } from "./create-engram.js";
import type { Engram } from "./engram.js";
import { stampTurn, type WrapperTurn } from "./stamp-turn.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tempEngram(): Promise<Engram> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-stamp-turn-"));
  const engram = await createEngram({
    background: false,
    path: path.join(dir, "engram.db"),
    embedder: hashEmbeddingModel(),
  });
  cleanups.push(async () => {
    await engram.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return engram;
}

const turn = (extra: Partial<WrapperTurn> = {}): WrapperTurn => ({
  userId: "ada",
  sessionId: "s1",
  messages: [
    { role: "user", content: "ok" },
    { role: "assistant", content: "Noted." },
  ],
  ...extra,
});

const storedTexts = async (engram: Engram) =>
  (await engram.memories.list({ userId: "ada", kinds: ["message"], order: "asc" })).map((m) => m.text);

describe("stampTurn", () => {
  it("stamps a time once: the stamped turn added again is stored once", async () => {
    const engram = await tempEngram();
    const stamped = stampTurn(turn());
    expect(Date.parse(stamped.at)).not.toBeNaN();
    expect(stamped.messages.every((m) => m.id === undefined)).toBe(true);
    const first = await engram.add(stamped);
    const again = await engram.add(stamped);
    expect(first.added).toBe(2);
    expect(again).toMatchObject({ added: 0, ids: first.ids });
    // Without a turn id the ids are the content identity of the stamped time.
    expect(first.ids[0]).toBe(
      messageId({
        userId: "ada",
        cube: ["user", "ada"],
        sessionId: "s1",
        role: "user",
        at: stamped.at,
        text: "ok",
        repeat: 0,
      }),
    );
    expect(await storedTexts(engram)).toEqual(["ok", "Noted."]);
  });

  it("never gives two turns of one process the same time, so the same words said twice stay two turns", async () => {
    const engram = await tempEngram();
    const stamps = Array.from({ length: 50 }, () => stampTurn(turn()));
    expect(new Set(stamps.map((s) => s.at)).size).toBe(50);
    for (const stamped of stamps.slice(0, 2)) await engram.add(stamped);
    expect(await storedTexts(engram)).toEqual(["ok", "Noted.", "ok", "Noted."]);
  });

  it("keeps a given time, as stored", () => {
    expect(stampTurn(turn({ at: "2026-01-05T11:00:00+01:00" })).at).toBe("2026-01-05T10:00:00.000Z");
  });

  it("with a turn id, stamped again later still stores the turn once", async () => {
    const engram = await tempEngram();
    const first = await engram.add(stampTurn(turn({ turnId: "msg-1", at: "2026-01-05T10:00:00Z" })));
    const rerun = await engram.add(stampTurn(turn({ turnId: "msg-1" })));
    expect(rerun).toMatchObject({ added: 0, ids: first.ids });
    const stored = await engram.memories.list({ userId: "ada", kinds: ["message"], order: "asc" });
    expect(stored.map((m) => [m.text, m.validFrom])).toEqual([
      ["ok", "2026-01-05T10:00:00.000Z"],
      ["Noted.", "2026-01-05T10:00:00.000Z"],
    ]);
    const other = await engram.add(stampTurn(turn({ turnId: "msg-2" })));
    expect(other.added).toBe(2);
  });

  it("derives a turn's ids from its user, session, role, text and repeat as well as the turn id", () => {
    const ids = (t: WrapperTurn) => stampTurn(t).messages.map((m) => m.id);
    const base = ids(turn({ turnId: "t" }));
    expect(new Set(base).size).toBe(2);
    expect(ids(turn({ turnId: "t" }))).toEqual(base);
    expect(ids(turn({ turnId: "t", userId: "bob" }))).not.toContain(base[0]);
    expect(ids(turn({ turnId: "t", sessionId: "s2" }))).not.toContain(base[0]);
    expect(ids(turn({ turnId: "t", agentId: "a1" }))).toEqual(base);
    const twice = ids({
      userId: "ada",
      turnId: "t",
      messages: [
        { role: "assistant", content: "ok" },
        { role: "assistant", content: "ok" },
      ],
    });
    expect(new Set(twice).size).toBe(2);
  });

  it("refuses an invalid turn with a ValidationError naming the field", () => {
    expect(() => stampTurn(turn({ userId: "" }))).toThrow(ValidationError);
    expect(() => stampTurn(turn({ messages: [{ role: "user", content: "  " }] }))).toThrow(
      /stampTurn: messages\.0\.content: content must not be empty/,
    );
    expect(() => stampTurn(turn({ at: "yesterday-ish" }))).toThrow(/stampTurn: at:/);
    expect(() => stampTurn(turn({ turnId: "" }))).toThrow(/stampTurn: turnId: must not be empty/);
  });
});
