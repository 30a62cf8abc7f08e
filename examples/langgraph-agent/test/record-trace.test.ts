import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram } from "@engram/core";
import { hashEmbeddingModel } from "@engram/core/testing";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { afterEach, beforeEach, expect, it } from "vitest";
import { recordRun } from "../src/record-trace.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "engram-agent-trace-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The messages of one graph run that checked the weather and then booked a tennis court. */
function run(city: string, failed = false) {
  return [
    new HumanMessage(`Book a tennis court in ${city} for tomorrow if it stays dry`),
    new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "weather", args: { city } }] }),
    new ToolMessage({ tool_call_id: "c1", content: "dry" }),
    new AIMessage({ content: "", tool_calls: [{ id: "c2", name: "book_court", args: { city } }] }),
    new ToolMessage({
      tool_call_id: "c2",
      content: failed ? "no court free" : "booked",
      status: failed ? "error" : "success",
    }),
    new AIMessage(failed ? "No court was free." : `Booked a court in ${city}.`),
  ];
}

it("records a graph's runs as traces, which become a skill", async () => {
  const engram = await createEngram({
    path: join(dir, "a.db"),
    embedder: hashEmbeddingModel(),
    background: false,
  });
  for (const city of ["Lisbon", "Porto", "Faro"]) await recordRun(engram, "alice", run(city));
  await recordRun(engram, "alice", run("Braga", true));
  await engram.flush();
  const [failed] = await engram.traces.list({ userId: "alice" });
  expect(failed).toMatchObject({
    task: "Book a tennis court in Braga for tomorrow if it stays dry",
    outcome: "failure",
    answer: "No court was free.",
  });
  expect(failed?.steps[1]).toEqual({ tool: "book_court", args: { city: "Braga" }, error: "no court free" });
  const [skill] = await engram.skills.list({ userId: "alice" });
  expect(skill?.steps.map((s) => s.tool)).toEqual(["weather", "book_court"]);
  expect(skill?.pitfalls).toEqual(["book_court can fail (no court free)"]);
  await engram.close();
});
