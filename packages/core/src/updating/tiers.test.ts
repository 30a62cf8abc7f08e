import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { offlineExtractor } from "@engram/english";
import { afterEach, describe, expect, it } from "vitest";
import { createEngram, type EngramOptions } from "../engine/create-engram.js";
import type { Engram } from "../engine/engram.js";
import { ModelError } from "../errors/index.js";
import { sequentialIds } from "../model/index.js";
import { POLICY_PRESETS, resolvePolicy } from "../runtime/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import { storageOf } from "../testing.js";
import { segmentHeat } from "./heat.js";
import { segmentState } from "./segment-record.js";

const T0 = Date.parse("2026-03-01T09:00:00Z");
const dirs: string[] = [];
const open: Engram[] = [];

function clock() {
  let now = T0;
  const c = () => new Date(now);
  c.advance = (seconds: number) => {
    now += seconds * 1000;
  };
  return c;
}

async function engine(options: Partial<EngramOptions> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "engram-tiers-"));
  dirs.push(dir);
  const c = clock();
  const engram = await createEngram({
    path: join(dir, "e.db"),
    embedder: hashEmbeddingModel({ dimensions: 128 }),
    clock: c,
    ids: sequentialIds(),
    background: false,
    policy: { shortTermCapacity: 3, evictionBatch: 2, heatThreshold: 100 },
    ...options,
  });
  open.push(engram);
  return { engram, clock: c };
}

afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const page = (user: string, assistant: string) => [
  { role: "user" as const, content: user },
  { role: "assistant" as const, content: assistant },
];

async function messagesByTier(engram: Engram, userId: string) {
  const all = await engram.memories.list({ userId, kinds: ["message"], limit: 1000, order: "asc" });
  return { short: all.filter((m) => m.tier === "short"), mid: all.filter((m) => m.tier === "mid"), all };
}

describe("short-term overflow", () => {
  it("moves the oldest pages to mid-term in a batch and never drops one", async () => {
    const { engram, clock: c } = await engine();
    for (let i = 1; i <= 6; i++) {
      const r = await engram.add({
        userId: "u",
        sessionId: "s",
        messages: page(`Note number ${i} about gardening.`, `Reply ${i}.`),
      });
      expect(r.status).toBe("pending");
      c.advance(60);
      await engram.flush();
    }
    const { short, mid, all } = await messagesByTier(engram, "u");
    expect(all).toHaveLength(12);
    // 5 pages reached capacity 3 + batch 2: pages 1-2 left together; page 6 alone is not a batch yet.
    expect(mid.map((m) => m.text)).toEqual([
      "Note number 1 about gardening.",
      "Reply 1.",
      "Note number 2 about gardening.",
      "Reply 2.",
    ]);
    expect(short).toHaveLength(8);
    for (const m of mid) {
      const edges = await storageOf(engram).edges({ userId: "u" }, { from: m.id, type: "part_of" });
      expect(edges).toHaveLength(1);
    }
  });
});

describe("mid-term segments", () => {
  it("groups pages on one topic into one segment and starts another for a new topic", async () => {
    const { engram } = await engine({
      policy: { shortTermCapacity: 1, evictionBatch: 3, heatThreshold: 100 },
    });
    const topics = [
      page("hiking trails in the alps mountains hiking boots", "alps hiking trails mountains are great"),
      page("more hiking in the alps mountains trails this summer", "hiking alps mountains trails sound fun"),
      page("my tax return accountant deadline invoices", "tax return deadline accountant invoices noted"),
      page("last page", "ok"),
    ];
    for (const p of topics) await engram.add({ userId: "u", sessionId: "s", messages: p });
    await engram.flush();
    const segments = await engram.memories.list({ userId: "u", kinds: ["segment"], order: "asc" });
    expect(segments).toHaveLength(2);
    expect(segments.map((s) => s.metadata.size)).toEqual([2, 1]);
    expect(segments[0]?.metadata.keywords).toContain("hiking");
  });

  it("heat rises with visits and decays with time", () => {
    const policy = POLICY_PRESETS["memoryos-lib"];
    const now = new Date("2026-03-02T09:00:00Z");
    const base = { visits: 0, pages: 2, lastVisitAt: now.toISOString() };
    const fresh = segmentHeat(base, now, policy);
    expect(fresh).toBeCloseTo(3, 5);
    expect(segmentHeat({ ...base, visits: 2 }, now, policy)).toBeCloseTo(5, 5);
    const dayLater = new Date(now.getTime() + 24 * 3600 * 1000);
    expect(segmentHeat(base, dayLater, policy)).toBeCloseTo(2 + Math.exp(-1), 5);
  });
});

describe("promotion to persona memory", () => {
  it("promotes every hot segment once per batch of unanalysed pages", async () => {
    const { engram, clock: c } = await engine({
      policy: { shortTermCapacity: 1, evictionBatch: 2, heatThreshold: 2 },
    });
    await engram.add({
      userId: "u",
      sessionId: "s",
      messages: page("I live in Munich and I love hiking in the alps.", "Lovely."),
    });
    await engram.add({
      userId: "u",
      sessionId: "s",
      messages: page("My tax accountant said invoices are due.", "Noted."),
    });
    await engram.add({ userId: "u", sessionId: "s", messages: page("Bye for now.", "Bye.") });
    await engram.flush();
    const segments = await engram.memories.list({ userId: "u", kinds: ["segment"] });
    expect(segments.length).toBe(2);
    expect(segments.every((s) => s.metadata.promotions === 1)).toBe(true);
    c.advance(10);
    await engram.flush();
    const again = await engram.memories.list({ userId: "u", kinds: ["segment"] });
    expect(again.every((s) => s.metadata.promotions === 1)).toBe(true);
    const profile = await engram.profile({ userId: "u" });
    expect(profile).toContainEqual(expect.objectContaining({ key: "lives_in", value: "Munich" }));
  });

  it("keeps assistant knowledge per user", async () => {
    const { engram } = await engine({ policy: { shortTermCapacity: 1, evictionBatch: 1, heatThreshold: 1 } });
    await engram.add({
      userId: "a",
      sessionId: "s",
      messages: page("Any ideas for dinner?", "I recommend the Lisbon food tour."),
    });
    await engram.add({ userId: "a", sessionId: "s", messages: page("Thanks!", "Enjoy.") });
    await engram.add({ userId: "b", sessionId: "s", messages: page("Hello there.", "Hi.") });
    await engram.add({ userId: "b", sessionId: "s", messages: page("Bye.", "Bye.") });
    await engram.flush();
    const aFacts = await engram.memories.list({ userId: "a", kinds: ["fact"] });
    expect(aFacts.some((f) => f.role === "assistant")).toBe(true);
    const bSees = await engram.search({ userId: "b", query: "Lisbon food tour", limit: 10 });
    expect(bSees.length).toBeGreaterThan(0); // b's own memories, never a's
    expect(bSees.every((r) => r.memory.userId === "b" && !r.text.includes("Lisbon"))).toBe(true);
    const bContext = await engram.retrieve({ userId: "b", query: "what did you recommend?" });
    expect(bContext.text).not.toContain("Lisbon");
  });
});

describe("supersession and feedback", () => {
  it("a contradicting fact supersedes the old one, which stays in history and answers point-in-time queries", async () => {
    const { engram, clock: c } = await engine();
    const munich = await engram.feedback({ userId: "u", text: "I live in Munich." });
    const between = new Date(c().getTime() + 1000).toISOString();
    c.advance(3600);
    const berlin = await engram.feedback({ userId: "u", text: "I moved to Berlin." });
    expect(berlin.superseded).toEqual(munich.created);
    const now = await engram.profile({ userId: "u" });
    expect(now.filter((t) => t.key === "lives_in").map((t) => t.value)).toEqual(["Berlin"]);
    const then = await engram.profile({ userId: "u", at: between });
    expect(then.filter((t) => t.key === "lives_in").map((t) => t.value)).toEqual(["Munich"]);
    const old = munich.created[0] as string;
    const history = await engram.memories.history({ userId: "u", id: old });
    expect(history.map((h) => h.event)).toEqual(["create", "supersede"]);
    const edges = await storageOf(engram).edges({ userId: "u" }, { to: old, type: "supersedes" });
    expect(edges.map((e) => e.from)).toEqual(berlin.created);
    const current = await engram.search({ userId: "u", query: "Munich", kinds: ["fact"], limit: 5 });
    expect(current.map((r) => r.text).join(" ")).not.toContain("Munich");
    const past = await engram.search({
      userId: "u",
      query: "Munich",
      kinds: ["fact"],
      limit: 5,
      at: between,
    });
    expect(past[0]?.text).toContain("Munich");
  });

  it("applies a correction in natural language", async () => {
    const { engram, clock: c } = await engine();
    await engram.feedback({ userId: "u", text: "My sister is a biologist." });
    c.advance(60);
    const result = await engram.feedback({
      userId: "u",
      text: "Actually my sister is a doctor now, not a biologist.",
    });
    expect(result.superseded).toHaveLength(1);
    const facts = await engram.memories.list({ userId: "u", kinds: ["fact"], includeExpired: false });
    expect(facts.map((f) => f.metadata.value)).toEqual(["doctor"]);
  });
});

describe("visits and model feedback", () => {
  it("a retrieve that shows a segment's page counts a visit, which raises the segment's heat", async () => {
    const { engram } = await engine({
      policy: { shortTermCapacity: 1, evictionBatch: 1, heatThreshold: 100 },
    });
    await engram.add({
      userId: "u",
      sessionId: "s",
      messages: page("I keep bees on my roof in Oslo.", "Lovely."),
    });
    await engram.add({ userId: "u", sessionId: "s", messages: page("Bye.", "Bye.") });
    await engram.flush();
    const [before] = await engram.memories.list({ userId: "u", kinds: ["segment"] });
    const result = await engram.retrieve({ userId: "u", query: "bees on the roof in Oslo" });
    expect(result.context.pages.some((p) => p.text.includes("bees"))).toBe(true);
    await engram.flush();
    const [after] = await engram.memories.list({ userId: "u", kinds: ["segment"] });
    expect(after?.metadata.visits).toBe(Number(before?.metadata.visits) + 1);
    const policy = resolvePolicy({ heatThreshold: 100 });
    const now = new Date();
    expect(segmentHeat(segmentState(after as never), now, policy)).toBeGreaterThan(
      segmentHeat(segmentState(before as never), now, policy),
    );
  });

  it("applies a model's rewrite of a candidate memory as a new version", async () => {
    const rewriting = {
      ...offlineExtractor,
      name: "rewriting",
      async feedback(text: string, evidenceId: string, candidates: readonly { id: string; text: string }[]) {
        const base = await offlineExtractor.feedback(text, evidenceId);
        const target = candidates.find((c) => c.text.includes("biologist"));
        if (!target) return base;
        return {
          ...base,
          facts: [],
          retract: [],
          edits: [{ id: target.id, text: "The user's sister is a doctor." }],
        };
      },
    };
    const { engram, clock: c } = await engine({ extractor: rewriting });
    const first = await engram.feedback({ userId: "u", text: "My sister is a biologist." });
    c.advance(60);
    const result = await engram.feedback({
      userId: "u",
      text: "Actually my sister is a doctor, not a biologist.",
    });
    expect(result.edited).toEqual(first.created);
    const id = first.created[0] as string;
    expect((await engram.memories.get({ userId: "u", id })).text).toBe("The user's sister is a doctor.");
    expect((await engram.memories.history({ userId: "u", id })).map((h) => h.event)).toEqual([
      "create",
      "update",
    ]);
  });
});

describe("cubes", () => {
  it("retrieve reads only the cubes it is given", async () => {
    const { engram } = await engine({
      policy: { shortTermCapacity: 50, evictionBatch: 50, heatThreshold: 100 },
    });
    await engram.add({
      userId: "u",
      cube: ["project", "garden"],
      messages: page("The tomatoes need staking this week.", "Noted."),
    });
    await engram.add({ userId: "u", messages: page("My tomatoes allergy flares in summer.", "Take care.") });
    const garden = await engram.retrieve({ userId: "u", query: "tomatoes", cubes: [["project", "garden"]] });
    expect(garden.pages.map((p) => p.text)).toContain("The tomatoes need staking this week.");
    expect(garden.pages.every((p) => p.memory.cube.join("/") === "project/garden")).toBe(true);
    const all = await engram.retrieve({ userId: "u", query: "tomatoes" });
    expect(all.pages.map((p) => p.text)).toContain("My tomatoes allergy flares in summer.");
  });
});

describe("knowledge capacity", () => {
  it("expires the least confident, oldest facts beyond capacity and keeps them in history", async () => {
    const { engram, clock: c } = await engine({
      policy: { shortTermCapacity: 1, evictionBatch: 1, heatThreshold: 1, knowledgeCapacity: 2 },
    });
    const lines = ["I love jazz.", "I love sushi.", "I love hiking.", "I love chess."];
    for (const line of lines) {
      await engram.add({ userId: "u", sessionId: "s", messages: page(line, "Nice.") });
      c.advance(60);
      await engram.flush();
    }
    await engram.add({ userId: "u", sessionId: "s", messages: page("Bye.", "Bye.") });
    await engram.flush();
    const current = await engram.memories.list({ userId: "u", kinds: ["fact"], includeExpired: false });
    expect(current).toHaveLength(2);
    const all = await engram.memories.list({ userId: "u", kinds: ["fact"] });
    expect(all).toHaveLength(4);
    const expired = all.filter((f) => f.expiredAt !== null);
    const history = await engram.memories.history({ userId: "u", id: expired[0]?.id as string });
    expect(history.at(-1)?.metadata.reason).toBe("knowledge capacity");
  });
});

describe("mid-term eviction and faults", () => {
  it("evicts the coldest segment over capacity after extracting its pages; messages stay", async () => {
    const { engram } = await engine({
      policy: { shortTermCapacity: 1, evictionBatch: 2, midTermCapacity: 1, heatThreshold: 100 },
    });
    await engram.add({
      userId: "u",
      sessionId: "s",
      messages: page("I am allergic to peanuts, sadly peanuts everywhere.", "Noted."),
    });
    await engram.add({
      userId: "u",
      sessionId: "s",
      messages: page("quantum physics lecture homework equations", "physics equations homework"),
    });
    await engram.add({ userId: "u", sessionId: "s", messages: page("Bye.", "Bye.") });
    await engram.flush();
    expect(await engram.memories.list({ userId: "u", kinds: ["segment"] })).toHaveLength(1);
    expect((await messagesByTier(engram, "u")).all).toHaveLength(6);
    const profile = await engram.profile({ userId: "u" });
    expect(profile.some((t) => t.key === "allergy")).toBe(true);
  });

  it("a failing model loses nothing: the job is retried with back-off and completes later", async () => {
    let failures = 2;
    const flaky = {
      ...offlineExtractor,
      name: "flaky",
      async persona(...args: Parameters<typeof offlineExtractor.persona>) {
        if (failures-- > 0) throw new ModelError("simulated 429", { details: { retryable: true } });
        return offlineExtractor.persona(...args);
      },
    };
    const { engram, clock: c } = await engine({
      extractor: flaky,
      policy: { shortTermCapacity: 1, evictionBatch: 1, heatThreshold: 1 },
    });
    await engram.add({ userId: "u", sessionId: "s", messages: page("I live in Porto.", "Nice.") });
    await engram.add({ userId: "u", sessionId: "s", messages: page("Bye.", "Bye.") });
    const first = await engram.flush();
    expect(first.retried).toBe(1);
    const [job] = await storageOf(engram).jobs({ userId: "u" }, "queued");
    expect(job?.lastError).toContain("simulated 429");
    expect((await messagesByTier(engram, "u")).all).toHaveLength(4);
    c.advance(3600);
    await engram.flush();
    c.advance(3600);
    await engram.flush();
    expect((await engram.profile({ userId: "u" })).map((t) => t.value)).toContain("Porto");
  });

  it("a job whose worker died is taken again after its lease and completes", async () => {
    const { engram, clock: c } = await engine({
      policy: { shortTermCapacity: 1, evictionBatch: 1, heatThreshold: 100 },
    });
    await engram.add({ userId: "u", sessionId: "s", messages: page("one", "two") });
    await engram.add({ userId: "u", sessionId: "s", messages: page("three", "four") });
    const claimed = await storageOf(engram).claimJobs({ now: c().toISOString(), limit: 10, leaseMs: 60_000 });
    expect(claimed.map((j) => j.type)).toContain("tiers");
    expect((await engram.flush()).completed).toBe(0); // leased by the "dead" worker
    c.advance(120);
    expect((await engram.flush()).completed).toBeGreaterThan(0);
    expect((await messagesByTier(engram, "u")).mid).toHaveLength(2);
  });
});
