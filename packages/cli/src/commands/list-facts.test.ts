import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram, type MemoryRecord } from "@engram/core";
import { afterAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "../run-cli.js";

// A statement made once in a short chat is a long-term fact as soon as the chat's tier work has run,
// under the default (`paper`) constants the CLI uses: nothing has left short-term yet.
const dir = mkdtempSync(join(tmpdir(), "engram-cli-facts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SMALL_TALK = [
  ["Hi there!", "Hello! How is your day going?"],
  ["Pretty good, thanks.", "Glad to hear it."],
  ["The weather is grey today.", "Grey days call for tea."],
  ["Ha, true.", "Anything fun planned?"],
  ["Not much, some reading.", "Reading is a fine plan."],
  ["Any book tips?", "Try a short mystery."],
  ["Nice idea.", "Enjoy it."],
  ["Thanks, talk later.", "Talk soon!"],
  ["Bye for now.", "Bye!"],
] as const;

/** Twenty turns, a minute apart: ten exchanges of small talk, the fourth user turn the statement. */
function chat(statement: string, start: string) {
  const pairs = [...SMALL_TALK.slice(0, 3), [statement, "Good to know."], ...SMALL_TALK.slice(3)];
  return pairs
    .flatMap(([user, assistant]) => [
      { role: "user" as const, content: user },
      { role: "assistant" as const, content: assistant },
    ])
    .map((m, i) => ({ ...m, at: new Date(Date.parse(start) + i * 60_000).toISOString() }));
}

const list = async (db: string, ...args: string[]) => {
  const run = await runCliCaptured(["list", ...args, "--db", db, "--no-embed", "--json"]);
  expect(run.stderr).toBe("");
  return (JSON.parse(run.stdout) as { memories: MemoryRecord[] }).memories;
};

describe("engram list --tier long after a short chat", () => {
  it("shows the fact a chat added through the API stated once", async () => {
    const db = join(dir, "api.db");
    const engram = await createEngram({ path: db, embedder: null });
    for (const m of chat("I live in Leeds.", "2026-05-04T18:00:00Z")) {
      await engram.add({ userId: "leo", sessionId: "s1", messages: [m] });
    }
    await engram.flush();
    const apiView = await engram.memories.list({ userId: "leo", tiers: ["long"] });
    await engram.close();
    expect(apiView.map((m) => m.text)).toEqual(["The user lives in Leeds."]);

    const long = await list(db, "--user", "leo", "--tier", "long");
    expect(long.map((m) => [m.kind, m.tier, m.text, m.expiredAt])).toEqual([
      ["fact", "long", "The user lives in Leeds.", null],
    ]);
    expect(long[0]?.validFrom).toBe("2026-05-04T18:06:00.000Z"); // when the seventh turn said it
    const table = await runCliCaptured(["list", "--user", "leo", "--tier", "long", "--db", db, "--no-embed"]);
    expect(table.stdout).toMatch(
      /\bfact\s+long\s+2026-05-04 18:06\s+1\s+current\s+The user lives in Leeds\.\n$/,
    );
    const short = await list(db, "--user", "leo", "--tier", "short", "--kind", "message");
    expect(short).toHaveLength(20);
  });

  it("shows the fact an ingested chat stated, and a later move superseding it", async () => {
    const db = join(dir, "ingest.db");
    const file = join(dir, "mia.jsonl");
    const turns = [
      ...chat("I live in Berlin.", "2026-05-04T18:00:00Z"),
      ...chat("I moved to Munich.", "2026-05-11T18:00:00Z"),
    ];
    writeFileSync(file, turns.map((t) => JSON.stringify(t)).join("\n"));
    const ingest = await runCliCaptured(["ingest", "--user", "mia", file, "--db", db, "--no-embed"]);
    expect(ingest.code).toBe(0);
    const facts = await list(db, "--user", "mia", "--tier", "long");
    // Newest first: Munich current, Berlin superseded with its event time closed when Munich was said.
    expect(facts.map((f) => [f.text, f.expiredAt === null, f.validTo])).toEqual([
      ["The user moved to Munich.", true, null],
      ["The user lives in Berlin.", false, "2026-05-11T18:06:00.000Z"],
    ]);
    const profile = await runCliCaptured(["profile", "--user", "mia", "--db", db, "--no-embed", "--json"]);
    expect(profile.stdout).toContain('"Munich"');
    expect(profile.stdout).not.toContain('"Berlin"');
  });

  it("shows a job change and a pet's name from a twelve-message chat: the new job current, the old superseded", async () => {
    const db = join(dir, "job.db");
    const file = join(dir, "ana.jsonl");
    const turns = [
      [
        "Hi! I'm a nurse at St. Mary's hospital, mostly night shifts.",
        "Night shifts are tough. How can I help?",
      ],
      [
        "Can you suggest a quick dinner I can prep before work?",
        "A lentil soup keeps well and reheats fast.",
      ],
      ["We adopted a beagle named Waffles last weekend!", "Congratulations! Beagles are lovely dogs."],
      ["Any tips for crate training?", "Keep sessions short and reward calm behaviour."],
      [
        "Big news: I quit nursing last month and started working as a paramedic with the city ambulance service.",
        "That's a big change! How are you finding it?",
      ],
      ["Exhausting but I love it. Waffles hates the siren on my phone though.", "Try a softer ringtone."],
    ].flatMap(([user, assistant], i) => {
      const at = (s: number) => new Date(Date.parse("2026-01-05T09:00:00Z") + i * 86_400_000 * 14 + s * 1000);
      return [
        { role: "user", content: user, at: at(0).toISOString() },
        { role: "assistant", content: assistant, at: at(5).toISOString() },
      ];
    });
    writeFileSync(file, turns.map((t) => JSON.stringify(t)).join("\n"));
    expect((await runCliCaptured(["ingest", "--user", "ana", file, "--db", db, "--no-embed"])).code).toBe(0);
    const facts = await list(db, "--user", "ana", "--tier", "long");
    const state = (text: string) => facts.find((f) => f.text === text)?.expiredAt === null;
    expect(facts.map((f) => f.text).sort()).toEqual([
      "The user has a beagle named Waffles.",
      "The user is a nurse.",
      "The user is a paramedic.",
      "The user works at City Ambulance Service.",
      "The user works at St. Mary's.",
      "The user's beagle is named Waffles.",
    ]);
    expect(state("The user is a paramedic.")).toBe(true);
    expect(state("The user is a nurse.")).toBe(false);
    // The employer changes with the job.
    expect(state("The user works at City Ambulance Service.")).toBe(true);
    expect(state("The user works at St. Mary's.")).toBe(false);
    expect(state("The user's beagle is named Waffles.")).toBe(true);
  });
});
