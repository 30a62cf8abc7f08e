import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Extractor } from "@engram/core";
import { afterAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "../run-cli.js";
import { evalFacts, type FactItem, scoreItem, splitHalves, valueMatches } from "./eval-facts.js";

const dir = mkdtempSync(join(tmpdir(), "engram-eval-facts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const BENCHMARK = fileURLToPath(new URL("../../../../bench/data/persona-facts.json", import.meta.url));

const items: FactItem[] = [
  {
    id: "p1",
    text: "I quit nursing and work as a paramedic in Leeds now",
    facts: [
      { slot: "works_as", value: "paramedic", supersedes: "nurse" },
      { slot: "lives_in", value: "Leeds" },
    ],
    topic: "work",
    style: "short-chat",
  },
  {
    id: "p2",
    text: "my cat Biscuit",
    facts: [
      { slot: "pet", value: "cat" },
      { slot: "pet.name", value: "Biscuit" },
    ],
    topic: "pets",
    style: "short-chat",
  },
  {
    id: "p3",
    text: "my daughter Mia",
    facts: [{ slot: "daughter.name", value: "Mia" }],
    topic: "family",
    style: "formal",
  },
  { id: "n1", text: "should I get a dog?", facts: [], topic: "question", style: "short-chat" },
  { id: "n2", text: "I'm not a doctor", facts: [], topic: "negation", style: "short-chat" },
];

/** An extractor that answers from a table: what each statement "yields". */
function scripted(
  table: Record<string, { slot: string; value: string; negated?: boolean; single?: boolean }[]>,
): Extractor {
  return {
    name: "scripted",
    async persona(messages) {
      return (table[messages[0]?.text ?? ""] ?? []).map((f) => ({
        subject: "user" as const,
        slot: f.slot,
        value: f.value,
        text: "",
        single: f.single ?? false,
        negated: f.negated ?? false,
        confidence: 1,
        evidence: messages[0]?.id ?? "",
      }));
    },
    async feedback() {
      throw new Error("not used");
    },
  };
}

describe("the persona-facts scoring", () => {
  it("matches a value by its content words, or by an accepted form", () => {
    expect(valueMatches("playing cello", { slot: "hobby", value: "cello" })).toBe(true);
    expect(valueMatches("trip to Japan in April", { slot: "plan", value: "trip to Japan" })).toBe(true);
    expect(valueMatches("doctor", { slot: "works_as", value: "family doctor" })).toBe(false);
    expect(valueMatches("peanuts", { slot: "allergy", value: "peanut" })).toBe(true);
    expect(valueMatches("Mo", { slot: "name", value: "Mohammed", also: ["Mo"] })).toBe(true);
  });

  it("counts matches one to one, extra facts as false positives, and facts on a statement that states none", () => {
    const found = scoreItem(items[0] as FactItem, [
      { slot: "works_as", value: "paramedic", negated: false, single: true },
      { slot: "works_as", value: "paramedic", negated: false, single: true },
    ]);
    expect(found).toMatchObject({ matched: 1, superseded: true });
    expect(found.missed.map((f) => f.slot)).toEqual(["lives_in"]);
    expect(found.extra).toHaveLength(1);
    // A new value on a slot that is not single-valued does not replace the old one; a retraction does.
    expect(
      scoreItem(items[0] as FactItem, [
        { slot: "works_as", value: "paramedic", negated: false, single: false },
      ]).superseded,
    ).toBe(false);
    expect(
      scoreItem(items[0] as FactItem, [{ slot: "works_as", value: "nurse", negated: true, single: true }])
        .superseded,
    ).toBe(true);
    // "child" names a daughter when the extractor does not tell them apart.
    expect(
      scoreItem(items[2] as FactItem, [{ slot: "child", value: "Mia", negated: false, single: false }])
        .matched,
    ).toBe(1);
    // ... and a retraction of the old name on "child" replaces the daughter's old name.
    const renamed = {
      ...(items[2] as FactItem),
      facts: [{ slot: "daughter.name", value: "Mia", supersedes: "Maya" }],
    };
    expect(
      scoreItem(renamed, [
        { slot: "child", value: "Mia", negated: false, single: false },
        { slot: "child", value: "Maya", negated: true, single: false },
      ]).superseded,
    ).toBe(true);
    const none = scoreItem(items[4] as FactItem, [
      { slot: "works_as", value: "doctor", negated: true, single: true },
    ]);
    expect(none).toMatchObject({ positive: false, matched: 0 });
    expect(none.extra).toHaveLength(1);
  });

  it("splits each topic alternately into the tuning and the check half", () => {
    const many = Array.from({ length: 6 }, (_, i) => ({
      ...(items[0] as FactItem),
      id: `p${i}`,
      topic: i < 4 ? "a" : "b",
    }));
    const { tune, check } = splitHalves(many);
    expect(tune.map((x) => x.id)).toEqual(["p0", "p2", "p4"]);
    expect(check.map((x) => x.id)).toEqual(["p1", "p3", "p5"]);
  });

  it("reports precision, recall, F1, supersession and false facts, overall and per half", async () => {
    const file = join(dir, "small.json");
    writeFileSync(file, JSON.stringify(items));
    const doc = (await evalFacts({
      dataPath: file,
      extractor: scripted({
        "I quit nursing and work as a paramedic in Leeds now": [
          { slot: "works_as", value: "paramedic", single: true },
          { slot: "lives_in", value: "Leeds", single: true },
        ],
        "my cat Biscuit": [{ slot: "pet", value: "cat" }],
        "should I get a dog?": [{ slot: "pet", value: "dog" }],
      }),
    })) as Record<string, unknown> & {
      overall: Record<string, number>;
      by_slot: Record<string, Record<string, number>>;
    };
    expect(doc).toMatchObject({
      statements: 5,
      positives: 3,
      negatives: 2,
      overall: { tp: 3, fn: 2, fp: 1, precision: 0.75, recall: 0.6, f1: 0.667 },
      supersession: { statements: 1, correct: 1, accuracy: 1 },
      false_facts: { statements: 2, with_facts: 1, facts: 1, rate: 0.5 },
      config: { extractor: "scripted" },
    });
    expect(doc.by_slot["pet.name"]).toMatchObject({ tp: 0, fn: 1, recall: 0 });
    expect(doc.by_slot.pet).toMatchObject({ tp: 1, fp: 1, precision: 0.5 });
  });

  it("refuses a file that is not a benchmark, naming the item and field", async () => {
    const file = join(dir, "bad.json");
    writeFileSync(
      file,
      JSON.stringify([{ id: "p1", text: "hi", facts: [{ slot: "name" }], topic: "x", style: "y" }]),
    );
    await expect(evalFacts({ dataPath: file })).rejects.toThrow(/item 0\.facts\.0\.value/);
    writeFileSync(file, JSON.stringify([items[0], items[0]]));
    await expect(evalFacts({ dataPath: file })).rejects.toThrow(/id p1 appears twice/);
  });
});

describe("engram eval facts", () => {
  it("scores the offline extractor on the project's benchmark: both halves, every slot", async () => {
    const r = await runCliCaptured(["eval", "facts", "--data", BENCHMARK, "--json"]);
    expect(r.stderr).toBe("");
    const doc = JSON.parse(r.stdout) as {
      statements: number;
      positives: number;
      negatives: number;
      overall: { f1: number };
      halves: { tune: { statements: number }; check: { statements: number } };
      config: { extractor: string };
    };
    expect(doc.positives).toBeGreaterThanOrEqual(300);
    expect(doc.negatives).toBeGreaterThanOrEqual(100);
    expect(doc.halves.tune.statements + doc.halves.check.statements).toBe(doc.statements);
    expect(doc.config.extractor).toBe("offline");
    expect(doc.overall.f1).toBeGreaterThan(0);
    const text = await runCliCaptured(["eval", "facts", "--data", BENCHMARK]);
    expect(text.stdout).toMatch(/^Persona facts: \d+ statements/);
    expect(text.stdout).toMatch(/\ncheck half: F1 /);
  });

  it("takes --data only", async () => {
    const r = await runCliCaptured(["eval", "facts", "--data", BENCHMARK, "--limit", "3"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/eval facts takes --data FILE \(and --json\) only/);
  });
});
