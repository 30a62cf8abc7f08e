import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { offlineExtractor } from "@engram/english";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { createEngram, type EngramOptions } from "../engine/create-engram.js";
import type { Engram } from "../engine/engram.js";
import { sequentialIds } from "../model/index.js";
import type { Extractor } from "../runtime/index.js";
import { hashEmbeddingModel } from "../testing/index.js";
import { storageOf } from "../testing.js";

// These tests use the `paper` preset unless they say otherwise: the point is that explicit facts do not
// wait for its 14 pages of short-term overflow and a segment at heat 5.
const T0 = Date.parse("2026-03-01T09:00:00Z");
const dirs: string[] = [];
const open: Engram[] = [];

async function engine(options: Partial<EngramOptions> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "engram-screen-"));
  dirs.push(dir);
  let now = T0;
  const engram = await createEngram({
    path: join(dir, "e.db"),
    embedder: hashEmbeddingModel({ dimensions: 64 }),
    clock: () => new Date(now),
    ids: sequentialIds(),
    background: false,
    ...options,
  });
  open.push(engram);
  return { engram, advance: (seconds: number) => (now += seconds * 1000) };
}

afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const SMALL_TALK: ReadonlyArray<readonly [string, string]> = [
  ["Hi there!", "Hello! How is your day going?"],
  ["Pretty good, thanks.", "Glad to hear it."],
  ["The weather is grey today.", "Grey days call for tea."],
  ["Ha, true.", "Anything fun planned?"],
  ["Not much, some reading.", "Reading is a fine plan."],
  ["Any book tips?", "Try a short mystery."],
  ["Nice idea.", "Enjoy it."],
  ["Thanks, talk later.", "Talk soon!"],
  ["Bye for now.", "Bye!"],
];

/** Ten user/assistant exchanges of small talk with one statement as the fourth user turn. */
function conversation(statement: string) {
  const pairs = [...SMALL_TALK.slice(0, 3), [statement, "Good to know."] as const, ...SMALL_TALK.slice(3)];
  return pairs.flatMap(([user, assistant]) => [
    { role: "user" as const, content: user },
    { role: "assistant" as const, content: assistant },
  ]);
}

/** Adds each message on its own, a minute apart, as a live chat would. */
async function chat(
  e: Awaited<ReturnType<typeof engine>>,
  messages: ReturnType<typeof conversation>,
  userId = "u",
) {
  for (const m of messages) {
    await e.engram.add({
      userId,
      sessionId: "s",
      messages: [{ ...m, at: new Date(e.advance(60)).toISOString() }],
    });
  }
  await e.engram.flush();
}

const facts = (engram: Engram, userId = "u") =>
  engram.memories.list({ userId, kinds: ["fact"], order: "asc", limit: 1000 });

describe("explicit facts reach long-term memory promptly", () => {
  it("a 20-message chat with one statement has that fact in long-term memory after flush", async () => {
    const e = await engine();
    const messages = conversation("I live in Leeds.");
    expect(messages).toHaveLength(20);
    await chat(e, messages);
    const long = await e.engram.memories.list({ userId: "u", tiers: ["long"] });
    expect(long.map((m) => [m.kind, m.text, m.expiredAt])).toEqual([
      ["fact", "The user lives in Leeds.", null],
    ]);
    const profile = await e.engram.profile({ userId: "u" });
    expect(profile.map((t) => [t.key, t.value])).toEqual([["lives_in", "Leeds"]]);
    // The tiers did not move: 10 pages stay short-term under the paper's 7 + 7, and no segment exists.
    expect(await e.engram.memories.list({ userId: "u", kinds: ["segment"] })).toEqual([]);
    const said = (await e.engram.memories.list({ userId: "u", kinds: ["message"], limit: 100 })).find(
      (m) => m.text === "I live in Leeds.",
    );
    expect(said?.tier).toBe("short");
    expect(said?.metadata.screened).toBe(true);
    const fact = long[0];
    const edges = await storageOf(e.engram).edges({ userId: "u" }, { from: fact?.id, type: "derived_from" });
    expect(edges.map((x) => x.to)).toEqual([said?.id]);
    expect(fact?.validFrom).toBe(said?.validFrom);
  });

  it("a later statement supersedes: Munich is current, Berlin history with a supersedes edge", async () => {
    const e = await engine();
    await chat(e, conversation("I live in Berlin."));
    e.advance(3600);
    await chat(e, conversation("I moved to Munich."));
    const all = await facts(e.engram);
    expect(all.map((f) => [f.metadata.value, f.expiredAt === null])).toEqual([
      ["Berlin", false],
      ["Munich", true],
    ]);
    const [berlin, munich] = all;
    expect(berlin?.validTo).toBe(munich?.validFrom);
    const edges = await storageOf(e.engram).edges({ userId: "u" }, { to: berlin?.id, type: "supersedes" });
    expect(edges.map((x) => x.from)).toEqual([munich?.id]);
    const history = await e.engram.memories.history({ userId: "u", id: berlin?.id as string });
    expect(history.map((h) => h.event)).toEqual(["create", "supersede"]);
    const profile = await e.engram.profile({ userId: "u" });
    expect(profile.map((t) => [t.key, t.value])).toEqual([["lives_in", "Munich"]]);
  });

  it("a question and the assistant's turns create no user fact", async () => {
    const e = await engine();
    const messages = conversation("I live in Leeds.");
    messages.splice(
      2,
      2,
      { role: "user", content: "Do you live in Berlin?" },
      { role: "assistant", content: "I live in Berlin, and I love hiking." },
    );
    await chat(e, messages);
    const all = await facts(e.engram);
    expect(all.map((f) => [f.role, f.metadata.slot, f.metadata.value])).toEqual([
      ["user", "lives_in", "Leeds"],
    ]);
  });

  it("a fact the user deleted stays deleted: later tier runs and promotion do not bring it back", async () => {
    const e = await engine({ policy: { heatThreshold: 1 } });
    await chat(e, conversation("I live in Leeds."));
    const [fact] = await facts(e.engram);
    expect(fact?.text).toBe("The user lives in Leeds.");
    await e.engram.memories.delete({ userId: "u", id: fact?.id as string });
    // Eight more exchanges: the turn is seen by another tiers job, then evicted and promoted.
    await chat(e, conversation("Nice weather.").slice(0, 16));
    const said = await e.engram.memories.list({ userId: "u", kinds: ["message"], limit: 100 });
    expect(said.find((m) => m.text === "I live in Leeds.")?.metadata.analyzed).toBe(true);
    expect(await facts(e.engram)).toEqual([]);
  });
});

describe("retractions on the prompt path", () => {
  it("a retraction and a restatement in one batch leave a new current fact and the old one in history", async () => {
    const e = await engine();
    const coffee = () => e.engram.memories.list({ userId: "u", kinds: ["fact"], order: "asc" });
    await chat(e, [{ role: "user", content: "I love coffee." }]);
    const [first] = await coffee();
    await chat(e, [
      { role: "user", content: "I no longer love coffee." },
      { role: "user", content: "I love coffee again." },
    ]);
    const all = await coffee();
    expect(all.map((f) => [f.id === first?.id, f.expiredAt === null, f.version])).toEqual([
      [true, false, 2],
      [false, true, 1],
    ]);
    const history = await e.engram.memories.history({ userId: "u", id: first?.id as string });
    expect(history.map((h) => h.event)).toEqual(["create", "supersede"]);
  });
});

describe("promotion after the prompt path", () => {
  /** Paper capacities; any segment is hot, so the first overflow promotes the pages screened before. */
  const promoting = { policy: { heatThreshold: 1 } } as const;

  it("creates no duplicate and does not undo a supersession", async () => {
    const e = await engine(promoting);
    const messages = conversation("I live in Berlin.");
    messages.splice(8, 0, { role: "user", content: "I moved to Munich." });
    await chat(e, messages);
    const screened = await facts(e.engram);
    expect(screened.map((f) => [f.metadata.value, f.expiredAt === null])).toEqual([
      ["Berlin", false],
      ["Munich", true],
    ]);
    // Eight more exchanges overflow short-term: the pages with both statements move to mid-term and their
    // segments are promoted, so the offline extractor sees both statements again.
    await chat(e, conversation("Nice weather.").slice(0, 16));
    const segments = await e.engram.memories.list({ userId: "u", kinds: ["segment"], limit: 100 });
    expect(segments.some((s) => Number(s.metadata.promotions) > 0)).toBe(true);
    const moved = await e.engram.memories.list({
      userId: "u",
      kinds: ["message"],
      tiers: ["mid"],
      limit: 100,
    });
    expect(moved.map((m) => m.text)).toEqual(
      expect.arrayContaining(["I live in Berlin.", "I moved to Munich."]),
    );
    expect(moved.every((m) => m.metadata.analyzed === true)).toBe(true);
    const after = await facts(e.engram);
    expect(after.map((f) => [f.id, f.version, f.expiredAt])).toEqual(
      screened.map((f) => [f.id, f.version, f.expiredAt]),
    );
  });

  it("also when both statements arrive in one add at the same time", async () => {
    const e = await engine({ policy: { shortTermCapacity: 3, evictionBatch: 1, heatThreshold: 1 } });
    const page = (user: string, assistant: string) => [
      { role: "user" as const, content: user },
      { role: "assistant" as const, content: assistant },
    ];
    await e.engram.add({
      userId: "u",
      sessionId: "s",
      messages: [...page("I live in Berlin.", "Nice."), ...page("Actually I moved to Munich.", "Nicer.")],
    });
    await e.engram.flush();
    const screened = await facts(e.engram);
    expect(screened.map((f) => [f.metadata.value, f.expiredAt === null, f.version])).toEqual([
      ["Berlin", false, 2],
      ["Munich", true, 1],
    ]);
    // Three more pages make five over a capacity of three: both statements move and are promoted. They
    // share one event time, so only the evidence tells the re-extraction apart.
    await e.engram.add({
      userId: "u",
      sessionId: "s",
      messages: [...page("Hm.", "Yes?"), ...page("Well.", "Go on."), ...page("Bye.", "Bye.")],
    });
    await e.engram.flush();
    const moved = await e.engram.memories.list({ userId: "u", kinds: ["message"], tiers: ["mid"] });
    expect(moved.filter((m) => m.metadata.analyzed === true).map((m) => m.text)).toEqual(
      expect.arrayContaining(["I live in Berlin.", "Actually I moved to Munich."]),
    );
    expect(await facts(e.engram)).toEqual(screened);
  });

  it("a model's late restatement of an older value does not replace the newer one", async () => {
    // A persona extractor that, like a model, words the Berlin statement differently when promoted.
    const rewording: Extractor = {
      ...offlineExtractor,
      name: "rewording",
      async persona(messages) {
        const found = await offlineExtractor.persona(messages);
        return found.map((f) => (f.value === "Berlin" ? { ...f, value: "Berlin, Germany" } : f));
      },
    };
    const e = await engine({ extractor: rewording, ...promoting });
    const messages = conversation("I live in Berlin.");
    messages.splice(8, 0, { role: "user", content: "I moved to Munich." });
    await chat(e, messages);
    const screened = await facts(e.engram);
    expect(screened.map((f) => [f.metadata.value, f.expiredAt === null])).toEqual([
      ["Berlin", false],
      ["Munich", true],
    ]);
    await chat(e, conversation("Nice weather.").slice(0, 16));
    const segments = await e.engram.memories.list({ userId: "u", kinds: ["segment"], limit: 100 });
    expect(segments.some((s) => Number(s.metadata.promotions) > 0)).toBe(true);
    expect(await facts(e.engram)).toEqual(screened);
  });

  it("makes no model call: with an llm the prompt path still uses the offline rules", async () => {
    let calls = 0;
    const llm = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new Error(`unexpected model call ${++calls}`);
      },
    });
    const e = await engine({ llm });
    await chat(e, conversation("I live in Leeds."));
    expect(calls).toBe(0);
    expect((await facts(e.engram)).map((f) => f.text)).toEqual(["The user lives in Leeds."]);
  });

  it("reads another language's rules when given, and none with rules: null", async () => {
    // A stand-in for another language's rules: "Ich wohne in X" is where the user lives.
    const german: Extractor = {
      name: "german-stand-in",
      async persona(messages) {
        return messages.flatMap((m) => {
          const place = /^Ich wohne in (\p{Lu}\p{Ll}+)/u.exec(m.text)?.[1];
          if (!place) return [];
          const text = `The user lives in ${place}.`;
          return [
            {
              subject: "user" as const,
              slot: "lives_in",
              value: place,
              text,
              single: true,
              negated: false,
              confidence: 0.9,
              evidence: m.id,
            },
          ];
        });
      },
      async feedback() {
        return { facts: [], retract: [], keywords: [] };
      },
    };
    const de = await engine({ rules: german });
    await chat(de, conversation("Ich wohne in Leipzig."));
    expect((await facts(de.engram)).map((f) => f.text)).toEqual(["The user lives in Leipzig."]);
    const off = await engine({ rules: null });
    await chat(off, conversation("I live in Leeds."));
    // Nothing screened: ten exchanges are not yet enough for promotion under the paper constants.
    expect(await facts(off.engram)).toEqual([]);
    await expect(engine({ rules: {} as Extractor })).rejects.toThrow(/rules must be an Extractor/);
  });
});
