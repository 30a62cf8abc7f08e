import { describe, expect, it } from "vitest";
import { anonymizeSkill } from "./anonymize-skill.js";
import { commonSubsequence, confidenceOf, distillOffline } from "./distill-offline.js";
import { type EmbeddedTrace, groupTraces } from "./group-traces.js";
import { skillMeta } from "./skill-record.js";
import type { TraceStep } from "./skill-schemas.js";
import type { Trace } from "./trace-record.js";

let n = 0;
function trace(task: string, steps: TraceStep[], outcome: Trace["outcome"] = "success"): EmbeddedTrace {
  n++;
  return {
    trace: {
      id: `t${n}`,
      userId: "u",
      agentId: null,
      sessionId: null,
      task,
      steps,
      answer: null,
      outcome,
      at: "",
    },
    vector: null,
  };
}
const call = (tool: string, args: Record<string, unknown> = {}, error?: string): TraceStep => ({
  tool,
  args,
  ...(error ? { error } : { result: "ok" }),
});

describe("the offline distiller", () => {
  it("keeps the tool subsequence every successful run shares; an extra call in one run is not a step", () => {
    expect(commonSubsequence(["a", "x", "b", "c"], ["a", "b", "y", "c"])).toEqual(["a", "b", "c"]);
    const runs = [
      trace("Order pizza from Mario for dinner", [call("menu"), call("order", { shop: "Mario", size: "L" })]),
      trace("Order pizza from Luigi for lunch", [
        call("notes"),
        call("menu"),
        call("order", { shop: "Luigi", size: "L" }),
      ]),
      trace("Order a pizza from Gino tonight", [call("menu"), call("order", { shop: "Gino", size: "L" })]),
    ];
    const [group, ...rest] = groupTraces(runs, 0.5);
    expect(rest).toEqual([]);
    const skill = distillOffline(group as NonNullable<typeof group>, 3);
    expect(skill?.body.steps).toEqual([
      { tool: "menu", args: {}, note: null },
      { tool: "order", args: { shop: "{shop}", size: "L" }, note: null },
    ]);
    expect(skill?.body.name).toContain("pizza");
    expect(skill?.evidence).toEqual(runs.map((r) => r.trace.id));
  });

  it("waits for minTraces successful runs and learns pitfalls from failed ones", () => {
    const ok = (shop: string) => trace(`Order pizza from ${shop}`, [call("menu"), call("order", { shop })]);
    const failed = trace(
      "Order pizza from Gino",
      [call("order", { shop: "Gino" }, "menu not loaded")],
      "failure",
    );
    const [two] = groupTraces([ok("Mario"), ok("Luigi"), failed], 0.5);
    expect(distillOffline(two as NonNullable<typeof two>, 3)).toBeNull();
    const [three] = groupTraces([ok("Mario"), ok("Luigi"), ok("Rita"), failed], 0.5);
    const skill = distillOffline(three as NonNullable<typeof three>, 3);
    expect(skill?.body.pitfalls).toEqual([
      "Call menu before order: without it order failed (menu not loaded)",
    ]);
    expect(skill).toMatchObject({ successes: 3, failures: 1 });
    expect(confidenceOf(3, 1)).toBe(0.6);
  });

  it("keeps traces whose tools differ apart, even when their tasks read alike", () => {
    const groups = groupTraces(
      [
        trace("Book a table at Nopa", [call("book_table")]),
        trace("Book a flight to Rome", [call("search_flights"), call("book_flight")]),
        trace("Book a table at Zuni", [call("book_table")]),
      ],
      0.1,
    );
    expect(groups.map((g) => g.members.map((m) => m.trace.task))).toEqual([
      ["Book a table at Nopa", "Book a table at Zuni"],
      ["Book a flight to Rome"],
    ]);
  });

  it("makes an agent-level copy without the user's values, names or trace ids", () => {
    const runs = [1, 2, 3].map((i) =>
      trace(`Send the invoice of Quetzal Ltd to Zebulon for order ${i}`, [
        call("find_invoice", { customer: "Quetzal Ltd", order: i }),
        call("send_email", { to: "zebulon@example.com" }, undefined),
      ]),
    );
    const failed = trace(
      "Send the invoice of Quetzal Ltd to Zebulon",
      [call("send_email", { to: "zebulon@example.com" }, "mailbox zebulon@example.com is full")],
      "failure",
    );
    const [group] = groupTraces([...runs, failed], 0.5);
    const distilled = distillOffline(group as NonNullable<typeof group>, 3);
    const shared = anonymizeSkill(
      skillMeta(distilled as NonNullable<typeof distilled>, "offline"),
      [...runs, failed].map((r) => r.trace),
    );
    const text = JSON.stringify(shared);
    for (const word of ["Quetzal", "Zebulon", "zebulon", "example.com", "t1"])
      expect(text).not.toContain(word);
    expect(shared.steps.map((s) => s.args)).toEqual([
      { customer: "{customer}", order: "{order}" },
      { to: "{to}" },
    ]);
    expect(shared).toMatchObject({ visibility: "agent", evidence: [] });
    expect(shared.trigger).toMatch(/^Tasks about: .*invoice/);
  });
});
