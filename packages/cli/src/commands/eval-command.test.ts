import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatEvalReport } from "../eval-report.js";
import { runCliCaptured } from "../run-cli.js";
import { parseKs } from "./eval-command.js";

const dir = mkdtempSync(join(tmpdir(), "engram-cli-eval-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const conversation = {
  sample_id: "conv-t",
  conversation: {
    speaker_a: "Ann",
    speaker_b: "Bob",
    session_1_date_time: "1:56 pm on 8 May, 2023",
    session_1: [
      { speaker: "Ann", dia_id: "D1:1", text: "I adopted a grey cat called Miso." },
      { speaker: "Bob", dia_id: "D1:2", text: "Lovely! Are you still teaching piano?" },
      { speaker: "Ann", dia_id: "D1:3", text: "Yes, piano lessons every Tuesday." },
    ],
  },
  qa: [
    { question: "What is the name of Ann's cat?", answer: "Miso", evidence: ["D1:1"], category: 4 },
    { question: "When does Ann teach piano?", answer: "Tuesday", evidence: ["D1:3"], category: 2 },
    { question: "Does Ann own a horse?", adversarial_answer: "no", evidence: [], category: 5 },
  ],
};

describe("engram eval locomo", () => {
  it("prints the recall document as JSON on a small LoCoMo file", async () => {
    const data = join(dir, "tiny.json");
    writeFileSync(data, JSON.stringify([conversation]));
    const run = await runCliCaptured([
      "eval",
      "locomo",
      "--data",
      data,
      "--db",
      join(dir, "e.db"),
      "--k",
      "1,2",
      "--no-embed",
      "--json",
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(doc.questions).toBe(2);
    expect(Object.keys(doc.recall as object).sort()).toEqual(["1", "2"]);
    expect(Object.keys(doc.by_category as object).sort()).toEqual(["2", "4"]);
    // Three short turns fit any budget: every evidence turn is in the assembled context.
    expect(doc.context_evidence_recall).toBe(1);
    expect(doc.context_evidence_recall_by_category).toEqual({ "2": 1, "4": 1 });
    for (const key of [
      "context_tokens_avg",
      "full_context_tokens_avg",
      "ingest_ms",
      "query_ms_p50",
      "query_ms_p95",
      "retrieve_ms_p50",
      "retrieve_ms_p95",
    ]) {
      expect(typeof doc[key]).toBe("number");
    }
  });

  it("refuses another benchmark, a missing --data file and a bad --k", async () => {
    const other = await runCliCaptured(["eval", "squad", "--data", "x"]);
    expect(other.code).toBe(2);
    expect(other.stderr).toBe(
      'engram eval: unknown benchmark "squad"; the ones available are locomo, longmemeval, facts\n',
    );
    const missing = await runCliCaptured(["eval", "locomo", "--data", join(dir, "none.json")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no such file");
    const noData = await runCliCaptured(["eval", "locomo"]);
    expect(noData.stderr).toBe("engram eval: missing --data FILE (a LoCoMo JSON file)\n");
    expect(() => parseKs("5,x")).toThrow('bad --k "5,x"');
    expect(() => parseKs("0")).toThrow("expected whole numbers from 1 to 1000");
    expect(parseKs(undefined)).toEqual([5, 10, 20]);
    expect(parseKs("20, 5")).toEqual([20, 5]);
  });
});

describe("formatEvalReport", () => {
  it("renders recall by category with names, then the overall row and timings", () => {
    const text = formatEvalReport({
      questions: 3,
      recall: { "10": 0.5, "5": 0.25 },
      by_category: {
        "4": { n: 2, recall: { "5": 0.5, "10": 1 } },
        "1": { n: 1, recall: { "5": 0, "10": 0 } },
      },
      ingest_ms: 120,
      query_ms_p50: 1.5,
      query_ms_p95: 3,
      context_tokens_avg: 250,
      full_context_tokens_avg: 19000,
      context_evidence_recall: 0.6667,
      context_evidence_recall_by_category: { "4": 1 },
    });
    expect(text.split("\n")).toEqual([
      "LoCoMo evidence recall",
      "category      questions  recall@5  recall@10  in context",
      "1 multi-hop   1          0.0000    0.0000     -",
      "4 single-hop  2          0.5000    1.0000     1.0000",
      "overall       3          0.2500    0.5000     0.6667",
      "ingest 120 ms · query p50 1.5 ms, p95 3 ms · context 250 tokens avg (full conversation 19000)",
    ]);
  });
});
