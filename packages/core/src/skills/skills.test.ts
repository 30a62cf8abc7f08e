import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEngram, type Engram, type EngramOptions } from "../engine/index.js";
import { NotFoundError, ValidationError } from "../errors/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import type { TraceInput } from "./skill-schemas.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tempEngram(options: EngramOptions = {}): Promise<Engram> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-skills-"));
  const engram = await createEngram({
    tiers: false,
    background: false,
    path: path.join(dir, "engram.db"),
    embedder: hashEmbeddingModel(),
    ...options,
  });
  cleanups.push(async () => {
    await engram.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return engram;
}

const RESTAURANTS = ["Nopa", "Zuni", "Delfina", "Flour"];

function booking(userId: string, i: number, extra: Partial<TraceInput> = {}): TraceInput {
  const restaurant = RESTAURANTS[i % RESTAURANTS.length] as string;
  return {
    userId,
    task: `Book a table for ${i + 2} at ${restaurant} restaurant on Friday evening`,
    steps: [
      {
        tool: "check_availability",
        args: { restaurant, day: "Friday", party: i + 2 },
        result: { free: true },
      },
      { tool: "book_table", args: { restaurant, day: "Friday", party: i + 2 }, result: { booked: `B${i}` } },
    ],
    answer: `Booked ${restaurant} for Friday.`,
    ...extra,
  };
}

describe("traces and skills", () => {
  it("distils a skill from three runs of a task, with steps, evidence, version and confidence", async () => {
    const engram = await tempEngram();
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) ids.push((await engram.traces.add(booking("ada", i))).id);
    await engram.flush();
    expect(await engram.skills.list({ userId: "ada" })).toEqual([]);
    ids.push((await engram.traces.add(booking("ada", 2))).id);
    await engram.flush();
    const [skill, ...more] = await engram.skills.list({ userId: "ada" });
    expect(more).toEqual([]);
    expect(skill?.steps.map((s) => s.tool)).toEqual(["check_availability", "book_table"]);
    // Values that vary become placeholders; the one that never varies is kept.
    expect(skill?.steps[0]?.args).toEqual({ restaurant: "{restaurant}", day: "Friday", party: "{party}" });
    expect(skill?.evidence).toEqual(ids);
    expect(skill).toMatchObject({
      version: 1,
      successes: 3,
      failures: 0,
      confidence: 0.75,
      source: "offline",
    });
    expect(skill?.name).toContain("table");
  });

  it("adds matching skills to the context in their own section; an unrelated query gets none", async () => {
    const engram = await tempEngram();
    for (let i = 0; i < 3; i++) await engram.traces.add(booking("ada", i));
    await engram.add({ userId: "ada", messages: [{ role: "user", content: "I love the weather in Oslo" }] });
    await engram.flush();
    const related = await engram.retrieve({
      userId: "ada",
      query: "Book a table for 6 at Zuni restaurant on Friday",
    });
    expect(related.skills).toHaveLength(1);
    expect(related.text).toContain("## Skills");
    expect(related.text).toContain(
      "1. check_availability(restaurant={restaurant}, day=Friday, party={party})",
    );
    expect(related.context.skills.map((s) => s.id)).toEqual([related.skills[0]?.skill.id]);
    // Traces are memories of their own kind: search finds them by kind.
    const found = await engram.search({ userId: "ada", query: "table at Zuni", kinds: ["trace"], limit: 1 });
    expect(found.map((r) => [r.kind, r.text])).toEqual([
      ["trace", "Book a table for 3 at Zuni restaurant on Friday evening"],
    ]);
    // A search that names no kinds leaves traces out.
    const plain = await engram.search({ userId: "ada", query: "table at Zuni", limit: 50 });
    expect(plain.length).toBeGreaterThan(0);
    expect(plain.filter((r) => r.kind === "trace")).toEqual([]);
    const unrelated = await engram.retrieve({
      userId: "ada",
      query: "What is the weather like in Oslo today?",
    });
    expect(unrelated.skills).toEqual([]);
    expect(unrelated.text).not.toContain("## Skills");
    // The skill section counts against the budget like any other.
    const tight = await engram.retrieve({
      userId: "ada",
      query: "Book a table for 6 at Zuni restaurant on Friday",
      budgetTokens: 60,
    });
    expect(tight.context.tokens).toBeLessThanOrEqual(60);
  });

  it("learns a pitfall from a failed run and makes a new version, keeping the old one in history", async () => {
    const engram = await tempEngram();
    for (let i = 0; i < 3; i++) await engram.traces.add(booking("ada", i));
    await engram.flush();
    const failed = await engram.traces.add({
      userId: "ada",
      task: "Book a table for 4 at Nopa restaurant on Friday evening",
      steps: [
        {
          tool: "book_table",
          args: { restaurant: "Nopa", day: "Friday", party: 4 },
          error: "no free table at 19:00",
        },
      ],
    });
    expect(failed.trace.outcome).toBe("failure");
    await engram.flush();
    const [skill] = await engram.skills.list({ userId: "ada" });
    expect(skill?.version).toBe(2);
    expect(skill?.failures).toBe(1);
    expect(skill?.pitfalls).toEqual([
      "Call check_availability before book_table: without it book_table failed (no free table at 19:00)",
    ]);
    const history = await engram.skills.history({ userId: "ada", id: skill?.id as string });
    expect(history.map((h) => [h.version, h.event])).toEqual([
      [1, "create"],
      [2, "update"],
    ]);
  });

  it("applies feedback as a new version and keeps the hand-made body when more traces arrive", async () => {
    const engram = await tempEngram();
    const three = [0, 1, 2].map((i) => ({
      ...booking("ada", i),
      steps: (booking("ada", i).steps ?? []).slice(1),
    }));
    for (const t of three) await engram.traces.add(t);
    await engram.traces.add({
      userId: "ada",
      task: "Is there a free table at Nopa tonight?",
      steps: [{ tool: "check_availability", args: { restaurant: "Nopa" }, result: { free: false } }],
    });
    await engram.flush();
    const [skill] = await engram.skills.list({ userId: "ada" });
    expect(skill?.steps.map((s) => s.tool)).toEqual(["book_table"]);
    const revised = await engram.skills.feedback({
      userId: "ada",
      id: skill?.id as string,
      text: "That is wrong, check availability first",
    });
    expect(revised.steps.map((s) => s.tool)).toEqual(["check_availability", "book_table"]);
    expect(revised).toMatchObject({ version: 2, source: "user" });
    expect(revised.pitfalls[0]).toBe("Correction: That is wrong, check availability first");
    await engram.traces.add({ ...booking("ada", 3), steps: (booking("ada", 3).steps ?? []).slice(1) });
    await engram.flush();
    const after = await engram.skills.get({ userId: "ada", id: skill?.id as string });
    expect(after.version).toBe(3);
    expect(after.steps.map((s) => s.tool)).toEqual(["check_availability", "book_table"]);
    expect(after.successes).toBe(4);
  });

  it("shares a skill with an agent's users only on request, without the user's values", async () => {
    const engram = await tempEngram();
    for (let i = 0; i < 3; i++) await engram.traces.add({ ...booking("ada", i), agentId: "concierge" });
    await engram.flush();
    const query = {
      userId: "bo",
      agentId: "concierge",
      query: "Book a table for 2 at Zuni restaurant on Friday",
    };
    expect((await engram.retrieve(query)).skills).toEqual([]);
    const [own] = await engram.skills.list({ userId: "ada" });
    const shared = await engram.skills.share({ userId: "ada", id: own?.id as string, agentId: "concierge" });
    expect(shared.visibility).toBe("agent");
    expect(shared.evidence).toEqual([]);
    expect(shared.steps[0]?.args).toEqual({ restaurant: "{restaurant}", day: "{day}", party: "{party}" });
    const seen = await engram.retrieve(query);
    expect(seen.skills.map((s) => s.skill.id)).toEqual([shared.id]);
    const text = JSON.stringify(await engram.skills.list({ agentId: "concierge" }));
    for (const word of ["Nopa", "Zuni", "Delfina", "Friday", own?.id]) expect(text).not.toContain(word);
    expect(await engram.skills.list({ userId: "bo" })).toEqual([]);
    // The agent's tenant is not a user.
    expect(await engram.users()).toEqual(["ada"]);
  });

  it("forget removes the user's traces and skills", async () => {
    const engram = await tempEngram();
    for (let i = 0; i < 3; i++) await engram.traces.add(booking("ada", i));
    for (let i = 0; i < 3; i++) await engram.traces.add(booking("bo", i));
    await engram.flush();
    expect((await engram.stats({ userId: "ada" })).byKind).toMatchObject({ trace: 3, skill: 1 });
    await engram.forget({ userId: "ada" });
    expect(await engram.traces.list({ userId: "ada" })).toEqual([]);
    expect(await engram.skills.list({ userId: "ada" })).toEqual([]);
    expect((await engram.stats({ userId: "bo" })).byKind).toMatchObject({ trace: 3, skill: 1 });
  });

  it("stores a trace sent again with the same time once; without a time, each add is a new run", async () => {
    const engram = await tempEngram();
    const trace: TraceInput = {
      userId: "ada",
      task: "Book a table for 2 at Nopa",
      steps: [{ tool: "book_table", args: { restaurant: "Nopa" }, result: "ok" }],
      at: "2026-03-01T19:00:00Z",
    };
    const first = await engram.traces.add(trace);
    const again = await engram.traces.add(trace);
    expect(again.id).toBe(first.id);
    expect(await engram.traces.list({ userId: "ada" })).toHaveLength(1);
    const { at: _at, ...untimed } = trace;
    const a = await engram.traces.add(untimed);
    const b = await engram.traces.add(untimed);
    expect(a.id).not.toBe(b.id);
    expect(await engram.traces.list({ userId: "ada" })).toHaveLength(3);
  });

  it("validates input with clear errors", async () => {
    const engram = await tempEngram();
    await expect(engram.traces.add({ userId: "ada", task: "", steps: [] })).rejects.toThrow(
      "traces.add: task: task must not be empty",
    );
    await expect(engram.skills.list({})).rejects.toBeInstanceOf(ValidationError);
    const reserved = 'ids starting with "~agent:" are reserved for an agent\'s shared skills';
    await expect(engram.traces.add({ userId: "~agent:concierge", task: "x", steps: [] })).rejects.toThrow(
      reserved,
    );
    // No public call may name the agent's tenant, so no user can write into it or read it as their own.
    await expect(
      engram.add({ userId: "~agent:concierge", messages: [{ role: "user", content: "hi" }] }),
    ).rejects.toThrow(reserved);
    await expect(engram.retrieve({ userId: "~agent:concierge", query: "hi" })).rejects.toThrow(reserved);
    await expect(engram.forget({ userId: "~agent:concierge" })).rejects.toBeInstanceOf(ValidationError);
    await expect(engram.skills.get({ userId: "ada", id: "nope" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(engram.skills.update({ userId: "ada", id: "nope" })).rejects.toThrow(
      "pass name, trigger, steps or pitfalls",
    );
  });
});
