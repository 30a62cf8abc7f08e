/**
 * Two processes' jobs on one store, interleaved by hand: one engine's job is held between its reads and
 * its write while another engine (its own connection to the same SQLite file) runs the other job to the
 * end. This is what the middleware SIGKILL trial hits at random (a child's worker runs the jobs another
 * child queued), made deterministic.
 */
import { join } from "node:path";
import { createEngram, type Engram } from "@engram/core";
import { SqliteStorage } from "@engram/core/sqlite";
import { hashEmbeddingModel, storageOf } from "@engram/core/testing";
import { afterEach, expect, it } from "vitest";
import { steered } from "./support/steered-port.js";
import { makeTempDir } from "./support/temp-dir.js";

const U = { userId: "ada" };
const NOW = new Date("2026-06-01T08:00:00.000Z");
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function engines(first: string[], second: string[]) {
  const dir = makeTempDir("engram-interleave-");
  const path = join(dir.path, "engram.db");
  const open = async (types: string[]) => {
    const steer = steered(new SqliteStorage({ path }), types, cleanups);
    const embedded: string[] = [];
    const engram = await createEngram({
      storage: steer.port,
      embedder: hashEmbeddingModel({ dimensions: 16, onCall: (values) => embedded.push(...values) }),
      background: false,
      clock: () => NOW,
      policy: { shortTermCapacity: 1, evictionBatch: 1 },
    });
    return { engram, steer, embedded };
  };
  const a = await open(first);
  const b = await open(second);
  cleanups.push(() => dir.remove());
  cleanups.push(() => a.engram.close());
  cleanups.push(() => b.engram.close());
  for (let i = 0; i < 3; i++) {
    await a.engram.add({
      ...U,
      sessionId: "s1",
      embed: "later",
      messages: [
        { role: "user", content: `turn ${i}: my sister moved to Porto` },
        { role: "assistant", content: `Noted, answer ${i}.` },
      ],
    });
  }
  return { a, b };
}

const messages = (engram: Engram) => engram.memories.list({ ...U, kinds: ["message"], limit: 100 });

async function nothingLeft(engram: Engram) {
  for (const status of ["queued", "running", "failed"] as const)
    expect(await storageOf(engram).jobs(U, status), `${status} jobs`).toEqual([]);
}

it("a tier job that read the turns pending does not write them back pending over the embed job's ready", async () => {
  const { a, b } = await engines(["tiers"], ["embed"]);
  const held = a.steer.holdNextWrite();
  const tiers = a.engram.flush();
  await held.atWrite;
  // One embed job per add.
  expect((await b.engram.flush()).completed).toBe(3);
  held.release();
  expect((await tiers).failed).toBe(0);
  await nothingLeft(a.engram);
  const all = await messages(a.engram);
  expect(all.filter((m) => m.status !== "ready").map((m) => m.text)).toEqual([]);
  const vectors = await storageOf(a.engram).getVectors(
    U,
    all.map((m) => m.id),
  );
  expect(vectors.size).toBe(all.length);
  expect(all.filter((m) => m.tier === "mid").length).toBeGreaterThan(0);
});

it("an embed job that read the turns short-term does not move them back over the tier job's move", async () => {
  const { a, b } = await engines(["embed"], ["tiers"]);
  const held = a.steer.holdNextWrite();
  const embed = a.engram.flush();
  await held.atWrite;
  expect((await b.engram.flush()).completed).toBe(1);
  const moved = (await messages(b.engram)).filter((m) => m.tier === "mid").map((m) => m.id);
  expect(moved.length).toBeGreaterThan(0);
  held.release();
  expect((await embed).failed).toBe(0);
  await nothingLeft(a.engram);
  const all = await messages(a.engram);
  expect(all.filter((m) => m.status !== "ready").map((m) => m.text)).toEqual([]);
  expect(all.filter((m) => m.tier === "mid").map((m) => m.id)).toEqual(moved);
  expect(all.filter((m) => moved.includes(m.id)).every((m) => typeof m.metadata.segment === "string")).toBe(
    true,
  );
});

it("an update that read a turn pending does not write it back pending over the embed job's ready", async () => {
  const { a, b } = await engines(["tiers"], ["embed"]);
  const [turn] = await messages(a.engram);
  if (!turn) throw new Error("no turn stored");
  const held = a.steer.holdNextWrite();
  const update = a.engram.memories.update({ ...U, id: turn.id, metadata: { starred: true } });
  await held.atWrite;
  expect((await b.engram.flush()).completed).toBe(3);
  held.release();
  const updated = await update;
  expect(updated).toMatchObject({ status: "ready", metadata: { starred: true }, version: 2 });
  expect(await a.engram.memories.get({ ...U, id: turn.id })).toEqual(updated);
  expect((await storageOf(a.engram).getVectors(U, [turn.id])).has(turn.id)).toBe(true);
});

it("an embed job whose write lost asks the model again only for text it has not embedded", async () => {
  const { a, b } = await engines(["embed"], ["tiers"]);
  const held = a.steer.holdNextWrite();
  const embed = a.engram.flush();
  await held.atWrite;
  const first = [...a.embedded];
  expect(first.length).toBeGreaterThan(0);
  expect((await b.engram.flush()).completed).toBe(1);
  held.release();
  expect((await embed).failed).toBe(0);
  // The turns the lost write held were moved, not edited: their vectors from the first try are kept.
  expect(a.embedded.filter((text) => first.includes(text))).toEqual(first);
  expect(new Set(a.embedded).size).toBe(a.embedded.length);
});
