/**
 * Interleavings of mid-term eviction, feedback and skill distillation with another process's writes: the
 * held writer read a segment, fact or skill, another engine changed it, then the held write goes on (see
 * job-interleaving.test.ts).
 */
import { join } from "node:path";
import { createEngram, type EngramOptions, type StoragePort } from "@engram/core";
import { SqliteStorage } from "@engram/core/sqlite";
import { hashEmbeddingModel, storageOf } from "@engram/core/testing";
import { afterEach, expect, it } from "vitest";
import { makeRecord } from "./support/make-record.js";
import { steered } from "./support/steered-port.js";
import { makeTempDir } from "./support/temp-dir.js";

const U = { userId: "ada" };
const NOW = new Date("2026-06-01T08:00:00.000Z");
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function engines(first: string[], second: string[], policy: EngramOptions["policy"] = {}) {
  const dir = makeTempDir("engram-interleave-");
  cleanups.push(() => dir.remove());
  const path = join(dir.path, "engram.db");
  const open = async (types: string[]) => {
    const steer = steered(new SqliteStorage({ path }), types, cleanups);
    const engram = await createEngram({
      storage: steer.port as StoragePort,
      embedder: hashEmbeddingModel({ dimensions: 16 }),
      background: false,
      clock: () => NOW,
      policy,
    });
    cleanups.push(() => engram.close());
    return { engram, steer };
  };
  return { a: await open(first), b: await open(second) };
}

function segment(id: string, lastVisitAt: string) {
  const metadata = { keywords: [], visits: 0, totalVisits: 0, pages: 0, lastVisitAt, size: 0 };
  return makeRecord({ id, userId: U.userId, kind: "segment", tier: "mid", role: null, metadata });
}

it("mid-term eviction that ranked a segment coldest does not delete it over a visit that made it hot", async () => {
  const { a, b } = await engines(["tiers"], ["visit"], { midTermCapacity: 1 });
  const cold = segment("seg_cold", "2025-01-01T00:00:00.000Z");
  const warm = segment("seg_warm", "2026-06-01T07:00:00.000Z");
  await storageOf(a.engram).write(U, {
    upsert: [cold, warm].map((record) => ({ record, vector: null })),
    jobs: [{ id: "job_tiers", type: "tiers", payload: {}, runAt: NOW.toISOString() }],
  });
  const held = a.steer.holdNextWrite((batch) => Boolean(batch.deleteIds?.length));
  const tiers = a.engram.flush();
  await held.atWrite;
  const visit = {
    id: "job_visit",
    type: "visit",
    payload: { segmentIds: [cold.id] },
    runAt: NOW.toISOString(),
  };
  await storageOf(b.engram).write(U, { jobs: [visit] });
  expect((await b.engram.flush()).completed).toBe(1);
  held.release();
  expect((await tiers).failed).toBe(0);
  const left = await storageOf(a.engram).scan(U, { filter: { kinds: ["segment"] } });
  // Ranked again after the visit: the warm one is now the coldest and leaves; the visit is kept.
  expect(left.map((s) => s.id)).toEqual([cold.id]);
  expect(left[0]?.metadata).toMatchObject({ visits: 1, totalVisits: 1, lastVisitAt: NOW.toISOString() });
});

it("feedback that read a fact does not supersede it with a copy older than another writer's update", async () => {
  const { a, b } = await engines(["tiers"], ["embed"]);
  await a.engram.add({ ...U, messages: [{ role: "user", content: "My sister is a biologist." }] });
  await a.engram.flush();
  const [fact] = await a.engram.memories.list({ ...U, kinds: ["fact"], limit: 10 });
  if (!fact) throw new Error("no fact stored");
  const held = a.steer.holdNextWrite();
  const feedback = a.engram.feedback({ ...U, text: "Actually my sister is a doctor now, not a biologist." });
  await held.atWrite;
  const starred = await b.engram.memories.update({
    ...U,
    id: fact.id,
    metadata: { ...fact.metadata, starred: true },
  });
  held.release();
  const result = await feedback;
  expect(result.superseded).toEqual([fact.id]);
  const [after] = await storageOf(a.engram).get(U, [fact.id]);
  expect(after).toMatchObject({
    metadata: { value: "biologist", starred: true },
    version: starred.version + 1,
  });
  expect(after?.expiredAt).toBe(NOW.toISOString());
  const facts = await storageOf(a.engram).scan(U, { filter: { kinds: ["fact"], current: true } });
  expect(facts.map((f) => f.metadata.value)).toEqual(["doctor"]);
});

function booking(i: number) {
  const restaurant = ["Nopa", "Zuni", "Delfina", "Flour"][i % 4] as string;
  const args = { restaurant, day: "Friday", party: i + 2 };
  return {
    ...U,
    task: `Book a table for ${i + 2} at ${restaurant} restaurant on Friday evening`,
    steps: [
      { tool: "check_availability", args, result: { free: true } },
      { tool: "book_table", args, result: { booked: `B${i}` } },
    ],
    answer: `Booked ${restaurant} for Friday.`,
  };
}

it("skill distillation that read a skill does not write its next version over a user's edit", async () => {
  const { a, b } = await engines(["skills"], ["embed"]);
  for (let i = 0; i < 3; i++) await a.engram.traces.add(booking(i));
  await a.engram.flush();
  const [skill] = await a.engram.skills.list(U);
  if (!skill) throw new Error("no skill distilled");
  await a.engram.traces.add(booking(3));
  const held = a.steer.holdNextWrite();
  const distill = a.engram.flush();
  await held.atWrite;
  const edited = await b.engram.skills.update({ ...U, id: skill.id, pitfalls: ["Call ahead on holidays"] });
  held.release();
  expect((await distill).failed).toBe(0);
  const after = await a.engram.skills.get({ ...U, id: skill.id });
  // Distilled again from the edited version: the user's body stays, the new evidence is counted.
  expect(after.pitfalls).toContain("Call ahead on holidays");
  expect(after.version).toBe(edited.version + 1);
  expect((await a.engram.skills.history({ ...U, id: skill.id })).map((v) => v.version)).toEqual([1, 2, 3]);
});

it("an item put that read the item does not write its next version over another writer's put", async () => {
  const { a, b } = await engines(["tiers"], ["embed"]);
  const cube = ["prefs"];
  const put = (value: Record<string, unknown>) => ({ put: [{ cube, key: "color", value, text: "" }] });
  await a.engram.items.write(U, put({ color: "red" }));
  const held = a.steer.holdNextWrite();
  const mine = a.engram.items.write(U, put({ color: "blue" }));
  await held.atWrite;
  await b.engram.items.write(U, put({ color: "green", shade: "dark" }));
  held.release();
  await mine;
  const item = await a.engram.items.get(U, cube, "color");
  expect(item).toMatchObject({ version: 3, metadata: { value: { color: "blue" } } });
  const history = await storageOf(a.engram).history(U, item?.id ?? "");
  expect(history.map((v) => [v.version, (v.metadata.value as { color: string }).color])).toEqual([
    [1, "red"],
    [2, "green"],
    [3, "blue"],
  ]);
});

it("a delete that read a turn gives the next turn that turn's context as another writer left it", async () => {
  const { a, b } = await engines(["tiers"], ["embed"]);
  await a.engram.add({
    ...U,
    sessionId: "s1",
    messages: [
      { role: "user", content: "My sister lives in Lisbon." },
      { role: "assistant", content: "Lisbon is lovely." },
      { role: "user", content: "She likes it there." },
    ],
  });
  const turns = await a.engram.memories.list({ ...U, kinds: ["message"], limit: 10 });
  const byText = (text: string) => turns.find((t) => t.text === text)?.id ?? "";
  const [first, second, third] = [
    byText("My sister lives in Lisbon."),
    byText("Lisbon is lovely."),
    byText("She likes it there."),
  ];
  const held = a.steer.holdNextWrite((batch) => Boolean(batch.deleteIds?.length));
  const deleting = a.engram.memories.delete({ ...U, id: second });
  await held.atWrite;
  // Another writer edits the first turn: the second turn's context becomes its new line.
  await b.engram.memories.update({ ...U, id: first, text: "My sister lives in Porto." });
  held.release();
  await deleting;
  expect((await storageOf(a.engram).get(U, [second])).length).toBe(0);
  const [next] = await storageOf(a.engram).get(U, [third]);
  expect(next?.context).toBe("user: My sister lives in Porto.");
});
