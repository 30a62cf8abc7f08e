import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "../run-cli.js";
import { answerInContext, sessionRecallAll, shownInContext, turnRecall } from "./lme-metrics.js";

const dir = mkdtempSync(join(tmpdir(), "engram-cli-lme-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const filler = (n: number) => [
  { role: "user", content: `Can you help me plan a budget for month ${n}?` },
  {
    role: "assistant",
    content: `Sure. ${"List your income and fixed costs, then set savings aside. ".repeat(12)}`,
  },
];

/** A LongMemEval item: the evidence in session 2 of 3, asked on a later date. */
function item(id: string, type: string, question: string, answer: string, evidence: string) {
  return {
    question_id: id,
    question_type: type,
    question,
    answer,
    question_date: "2023/05/30 (Tue) 23:40",
    haystack_dates: ["2023/05/01 (Mon) 10:00", "2023/05/10 (Wed) 18:30", "2023/05/20 (Sat) 09:15"],
    haystack_session_ids: [`${id}_a`, `${id}_answer`, `${id}_c`],
    haystack_sessions: [
      filler(1),
      [
        { role: "user", content: evidence, has_answer: true },
        { role: "assistant", content: "That sounds wonderful." },
      ],
      filler(3),
    ],
    answer_session_ids: [`${id}_answer`],
  };
}

const ITEMS = [
  item(
    "q1",
    "single-session-user",
    "What is the beagle I adopted called?",
    "Waffles",
    "I just adopted a beagle called Waffles.",
  ),
  item(
    "q2",
    "knowledge-update",
    "Where do I keep my bike?",
    "in the garage",
    "I keep my bike in the garage now.",
  ),
];

describe("engram eval longmemeval", () => {
  it("runs a .json.gz file through the engine and reports each figure per type, overall and per half", async () => {
    const path = join(dir, "two.json.gz");
    writeFileSync(path, gzipSync(JSON.stringify(ITEMS)));
    const r = await runCliCaptured([
      "eval",
      "longmemeval",
      "--data",
      path,
      "--db",
      join(dir, "eval.db"),
      "--no-embed",
      "--json",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      questions: 2,
      session_recall_all_5: 1,
      session_recall_all_10: 1,
      turn_recall_10: 1,
      context_evidence_recall: 1,
      answer_in_context: 1,
      by_type: {
        "single-session-user": { questions: 1, context_evidence_recall: 1 },
        "knowledge-update": { questions: 1, context_evidence_recall: 1 },
      },
      halves: { tune: { questions: 2 }, check: { questions: 0 } },
      ingest_turns: 12,
    });
    expect(doc.context_tokens).toBeLessThanOrEqual(1500);
    expect(doc.per_question.map((q: { id: string }) => q.id)).toEqual(["q1", "q2"]);
    // The same file as plain JSON, one type, the text report.
    const plain = join(dir, "two.json");
    writeFileSync(plain, JSON.stringify(ITEMS));
    const text = await runCliCaptured([
      "eval",
      "longmemeval",
      "--data",
      plain,
      "--db",
      join(dir, "eval2.db"),
      "--no-embed",
      "--types",
      "knowledge-update",
      "--limit",
      "1",
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^LongMemEval\n/);
    expect(text.stdout).toMatch(/knowledge-update\s+1\s+1\.000/);
    expect(text.stdout).not.toContain("single-session-user");
  });

  it("refuses bad flags and files with one line", async () => {
    const path = join(dir, "ok.json");
    writeFileSync(path, JSON.stringify(ITEMS));
    const run = (...args: string[]) => runCliCaptured(["eval", "longmemeval", "--data", path, ...args]);
    expect((await run("--limit", "0")).stderr).toMatch(/bad --limit "0"/);
    expect((await run("--types", "trivia")).stderr).toMatch(
      /bad --types "trivia": expected some of single-session-user/,
    );
    expect((await run("--k", "5")).stderr).toMatch(/--k goes with eval locomo/);
    const broken = join(dir, "broken.json");
    writeFileSync(broken, JSON.stringify([{ question_id: "x" }]));
    const bad = await runCliCaptured(["eval", "longmemeval", "--data", broken]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^engram eval: question 0: question_type: /);
  });
});

describe("the LongMemEval metrics", () => {
  it("count sessions, turns, passages of long turns and short answers as the shared README defines them", () => {
    expect(sessionRecallAll(["a", "a", "b", null, "c"], ["b", "c"], 3)).toBe(1);
    expect(sessionRecallAll(["a", "a", "b", "d", "c"], ["b", "c"], 3)).toBe(0);
    expect(turnRecall(["x", "y"], ["x", "z"], 10)).toBe(0.5);
    const long = `${"word ".repeat(30)}THE ANSWER IS HERE ${"more ".repeat(60)}`;
    const passage = long.slice(40, 260);
    expect(shownInContext(long, `... ${passage} ...`, (t) => t)).toBe(true);
    expect(shownInContext(long, `... ${long.slice(40, 200)} ...`, (t) => t)).toBe(false);
    expect(shownInContext("short turn", "a short answer shown", (t) => t)).toBe(false);
    expect(shownInContext("short turn", "the short\nturn", (t) => t)).toBe(true);
    expect(answerInContext("a Beagle", "she has A BEAGLE")).toBe(1);
    expect(answerInContext("one two three four five six seven", "x")).toBeNull();
  });
});
