import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCliCaptured } from "@engram/cli";
import { afterAll, expect, it } from "vitest";
import { startQdrantDouble } from "../qdrant-double/index.js";
import { makeTempDir } from "../support/temp-dir.js";

const dir = makeTempDir("engram-eval-qdrant-");
afterAll(() => dir.remove());

/** Four sessions of six exchanges, each about something else, so every question has one right answer. */
const SESSIONS = [
  ["my sister Lena moved to Lisbon for a job at an aquarium", "an aquarium job sounds wonderful"],
  ["I started pottery classes on Thursday evenings", "what do you make in pottery class"],
  ["our dog Pepper hurt her paw on the hike", "I hope the paw heals fast"],
  ["I am training for a half marathon in October", "that is a great goal"],
  ["the bakery on Elm street closed last week", "sad news about that bakery"],
  ["I finally fixed the leaking kitchen tap", "well done on the plumbing"],
  ["we booked a cabin near Lake Bled for June", "Bled in June is beautiful"],
  ["my laptop battery died during the exam", "that is bad timing"],
  ["I planted tomatoes and basil on the balcony", "fresh basil is the best"],
  ["our neighbour plays the cello every night", "cello music at night, nice or noisy"],
  ["I read a novel about a lighthouse keeper", "was the lighthouse novel good"],
  ["my cousin is getting married in Krakow", "a wedding in Krakow, congratulations"],
  ["the car needs new winter tyres", "tyres before the snow, smart"],
  ["I learned to make sourdough bread", "sourdough takes patience"],
  ["our team won the office quiz night", "quiz champions, well done"],
  ["I am repainting the hallway green", "green is a calm colour"],
  ["my grandfather turns ninety on Sunday", "ninety years, what a milestone"],
  ["I lost my umbrella on the tram", "the tram lost and found might have it"],
  ["we adopted a second cat named Juniper", "Juniper is a lovely name"],
  ["I signed up for a Spanish course", "buena suerte with Spanish"],
  ["the roof leaked during the storm", "storms are hard on roofs"],
  ["I switched to cycling to work", "cycling to work keeps you fit"],
  ["my phone screen cracked at the concert", "concerts are risky for phones"],
  ["I am knitting a scarf for my mother", "a hand knitted scarf is a fine gift"],
];

/** A LoCoMo-shaped conversation: four sessions of six exchanges, and questions with their evidence. */
function conversation() {
  const sessions: Record<string, unknown> = { speaker_a: "Ann", speaker_b: "Bob" };
  for (let s = 1; s <= 4; s++) {
    sessions[`session_${s}_date_time`] = `1:56 pm on ${s + 7} May, 2023`;
    sessions[`session_${s}`] = SESSIONS.slice((s - 1) * 6, s * 6).flatMap(([a, b], t) => [
      { speaker: "Ann", dia_id: `D${s}:${2 * t + 1}`, text: a },
      { speaker: "Bob", dia_id: `D${s}:${2 * t + 2}`, text: b },
    ]);
  }
  const qa = [
    { question: "Where did Lena move for her job?", evidence: ["D1:1"], category: 4 },
    { question: "When are Ann's pottery classes?", evidence: ["D1:3"], category: 2 },
    { question: "Where is the cabin Ann booked?", evidence: ["D2:1"], category: 4 },
    { question: "Where is Ann's cousin getting married?", evidence: ["D2:11"], category: 4 },
    { question: "What bread did Ann learn to make?", evidence: ["D3:3"], category: 4 },
    { question: "What is the name of Ann's second cat?", evidence: ["D4:1"], category: 4 },
    { question: "What is Ann knitting for her mother?", evidence: ["D4:11"], category: 4 },
  ].map((q) => ({ ...q, answer: "x" }));
  return { sample_id: "conv-q", conversation: sessions, qa };
}

async function evaluate(target: string[]): Promise<Record<string, unknown>> {
  const data = join(dir.path, "conv.json");
  writeFileSync(data, JSON.stringify([conversation()]));
  const run = await runCliCaptured(["eval", "locomo", "--data", data, ...target, "--no-embed", "--json"], {
    env: { ENGRAM_QDRANT_PREFIX: "eval_" },
  });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

it("engram eval locomo runs the whole engine on Qdrant (tiers included) and matches SQLite's recall", async () => {
  const double = await startQdrantDouble();
  try {
    const sqlite = await evaluate(["--db", join(dir.path, "eval.db")]);
    const qdrant = await evaluate(["--qdrant-url", double.url]);
    expect(qdrant.questions).toBe(7);
    expect(qdrant.questions).toBe(sqlite.questions);
    // The tiers ran on both: short-term overflow became mid-term segments.
    expect((qdrant.tiers as { segments: number }).segments).toBeGreaterThan(0);
    expect((qdrant.tiers as { segments: number }).segments).toBe(
      (sqlite.tiers as { segments: number }).segments,
    );
    const recall = (doc: Record<string, unknown>) => doc.recall as Record<string, number>;
    expect(recall(sqlite)["10"]).toBeGreaterThan(0.5); // the set is answerable, so agreement means something
    for (const k of Object.keys(recall(sqlite))) {
      expect(Math.abs((recall(qdrant)[k] as number) - (recall(sqlite)[k] as number))).toBeLessThanOrEqual(
        0.02,
      );
    }
    expect((qdrant.config as { backend: string }).backend).toBe("qdrant");
  } finally {
    await double.close();
  }
});
