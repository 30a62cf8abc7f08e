import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEngram } from "../engine/create-engram.js";
import type { Engram } from "../engine/engram.js";
import { sequentialIds } from "../model/index.js";

const dirs: string[] = [];
const open: Engram[] = [];

async function engine() {
  const dir = mkdtempSync(join(tmpdir(), "engram-apply-facts-"));
  dirs.push(dir);
  const engram = await createEngram({
    path: join(dir, "e.db"),
    embedder: null,
    clock: () => new Date("2026-03-01T09:00:00Z"),
    ids: sequentialIds(),
    background: false,
  });
  open.push(engram);
  return engram;
}

afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const livesIn = async (engram: Engram) =>
  (await engram.profile({ userId: "u" })).filter((t) => t.key === "lives_in").map((t) => t.value);

describe("event time decides which value is current", () => {
  it("a value said before the current one was said does not replace it", async () => {
    const engram = await engine();
    const munich = await engram.feedback({
      userId: "u",
      text: "I live in Munich.",
      at: "2026-02-10T00:00:00Z",
    });
    const late = await engram.feedback({
      userId: "u",
      text: "I live in Berlin.",
      at: "2026-01-10T00:00:00Z",
    });
    expect(late).toMatchObject({ created: [], superseded: [] });
    expect(await livesIn(engram)).toEqual(["Munich"]);
    const facts = await engram.memories.list({ userId: "u", kinds: ["fact"] });
    expect(facts.map((f) => f.id)).toEqual(munich.created);
  });

  it("a retraction said before the current value was said does not expire it", async () => {
    const engram = await engine();
    await engram.feedback({ userId: "u", text: "I live in Munich.", at: "2026-02-10T00:00:00Z" });
    const late = await engram.feedback({
      userId: "u",
      text: "I no longer live in Munich.",
      at: "2026-01-10T00:00:00Z",
    });
    expect(late.superseded).toEqual([]);
    expect(await livesIn(engram)).toEqual(["Munich"]);
  });

  it("a value said later, or at the same time, replaces it", async () => {
    const engram = await engine();
    await engram.feedback({ userId: "u", text: "I live in Munich.", at: "2026-02-10T00:00:00Z" });
    await engram.feedback({ userId: "u", text: "I moved to Berlin.", at: "2026-02-10T00:00:00Z" });
    expect(await livesIn(engram)).toEqual(["Berlin"]);
    await engram.feedback({ userId: "u", text: "I moved to Leeds.", at: "2026-02-11T00:00:00Z" });
    expect(await livesIn(engram)).toEqual(["Leeds"]);
  });
});
