import type { Engram } from "@engram/core";
import { generateText, stepCountIs, streamText, tool, wrapLanguageModel } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { engramMiddleware } from "./index.js";
import { type Step, scriptedModel, systemText, tempEngram } from "./test-support/scripted-model.js";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** Restaurant tools; `book_table` fails while `full` holds the restaurant, as a fully booked place would. */
function restaurantTools(full: Set<string> = new Set()) {
  return {
    check_availability: tool({
      description: "Free tables at a restaurant on a day",
      inputSchema: z.object({ restaurant: z.string(), day: z.string() }),
      execute: async ({ restaurant, day }) => ({ restaurant, day, free: !full.has(restaurant) }),
    }),
    book_table: tool({
      description: "Books a table",
      inputSchema: z.object({ restaurant: z.string(), day: z.string(), party: z.number() }),
      execute: async ({ restaurant, party }) => {
        if (full.has(restaurant)) throw new Error(`no free table for ${party} at ${restaurant}`);
        return { confirmation: `${restaurant.toUpperCase()}-${party}` };
      },
    }),
    weather: tool({
      description: "Weather for a city",
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => ({ city, forecast: "sunny" }),
    }),
  };
}

/** A scripted agent's steps for one booking: check, book, answer. */
function bookingRun(restaurant: string, party: number): Step[] {
  return [
    { toolCalls: [{ toolName: "check_availability", input: { restaurant, day: "Friday" } }] },
    { toolCalls: [{ toolName: "book_table", input: { restaurant, day: "Friday", party } }] },
    `Your table at ${restaurant} is booked.`,
  ];
}

async function setup(skills?: { shareWithAgent: boolean }) {
  const env = await tempEngram(skills ? { skills } : {});
  cleanup.push(env.dispose);
  const memory = engramMiddleware({ engram: env.engram });
  cleanup.push(() => memory.close());
  /** Runs one request through the middleware; returns the prompts the model received. */
  const run = async (
    who: { userId: string; agentId?: string },
    prompt: string,
    steps: Step[],
    full?: Set<string>,
  ) => {
    const { model, prompts } = scriptedModel(steps);
    await generateText({
      model: wrapLanguageModel({ model, middleware: memory }),
      tools: restaurantTools(full),
      stopWhen: stepCountIs(5),
      prompt,
      providerOptions: { engram: who },
    });
    await memory.flush();
    await env.engram.flush();
    return prompts;
  };
  return { engram: env.engram, run };
}

const steps = async (engram: Engram, userId: string) =>
  (await engram.skills.list({ userId }))[0]?.steps.map((s) => s.tool);

describe("skills through the AI SDK middleware", () => {
  it("records traces, distils a skill, injects it for the same kind of task only, and learns a pitfall", async () => {
    const { engram, run } = await setup();
    const ada = { userId: "ada" };
    const runs: [string, number][] = [
      ["Nopa", 2],
      ["Zuni", 4],
      ["Delfina", 3],
    ];
    for (const [i, [restaurant, party]] of runs.entries()) {
      expect(await engram.skills.list(ada)).toEqual([]);
      await run(
        ada,
        `Book a table for ${party} at ${restaurant} restaurant on Friday`,
        bookingRun(restaurant, party),
      );
      expect(await engram.traces.list(ada)).toHaveLength(i + 1);
    }
    const [trace] = await engram.traces.list(ada);
    expect(trace).toMatchObject({
      task: "Book a table for 3 at Delfina restaurant on Friday",
      outcome: "success",
      answer: "Your table at Delfina is booked.",
    });
    expect(trace?.steps).toEqual([
      {
        tool: "check_availability",
        args: { restaurant: "Delfina", day: "Friday" },
        result: { restaurant: "Delfina", day: "Friday", free: true },
      },
      {
        tool: "book_table",
        args: { restaurant: "Delfina", day: "Friday", party: 3 },
        result: { confirmation: "DELFINA-3" },
      },
    ]);
    expect(await steps(engram, "ada")).toEqual(["check_availability", "book_table"]);

    // The fourth request of that kind: the skill is in the prompt the model receives, at every step.
    const fourth = await run(ada, "Book a table for 5 at Flour restaurant on Friday", bookingRun("Flour", 5));
    for (const prompt of fourth) {
      expect(systemText(prompt)).toContain("## Skills");
      expect(systemText(prompt)).toContain(
        "1. check_availability(restaurant={restaurant}, day=Friday) 2. book_table(restaurant={restaurant}, day=Friday, party={party})",
      );
    }

    // A run that skips the check and fails teaches a pitfall.
    await run(
      ada,
      "Book a table for 2 at Nopa restaurant on Friday",
      [
        { toolCalls: [{ toolName: "book_table", input: { restaurant: "Nopa", day: "Friday", party: 2 } }] },
        "Sorry, Nopa is full.",
      ],
      new Set(["Nopa"]),
    );
    const [failed] = await engram.traces.list(ada);
    expect(failed).toMatchObject({
      outcome: "failure",
      steps: [{ tool: "book_table", error: "Error: no free table for 2 at Nopa" }],
    });
    const [skill] = await engram.skills.list(ada);
    expect(skill?.pitfalls).toEqual([
      "Call check_availability before book_table: without it book_table failed (Error: no free table for 2 at Nopa)",
    ]);
    expect(skill).toMatchObject({ successes: 4, failures: 1, version: 3 });

    // An unrelated request gets no skill.
    const unrelated = await run(ada, "What is the weather in Oslo?", [
      { toolCalls: [{ toolName: "weather", input: { city: "Oslo" } }] },
      "Sunny in Oslo.",
    ]);
    for (const prompt of unrelated) expect(systemText(prompt)).not.toContain("## Skills");
  });

  it("keeps user A's trace values out of user B's context, and forget removes A's traces and skills", async () => {
    const { engram, run } = await setup({ shareWithAgent: true });
    const a = { userId: "user-a", agentId: "concierge" };
    const b = { userId: "user-b", agentId: "concierge" };
    const PRIVATE = [
      "Quetzalbistro",
      "Brontoville",
      "Zebulonius",
      "QUETZALBISTRO",
      "BRONTOVILLE",
      "ZEBULONIUS",
    ];
    for (const [restaurant, party] of [
      ["Quetzalbistro", 2],
      ["Brontoville", 4],
      ["Zebulonius", 3],
    ] as const) {
      await run(
        a,
        `Book a table for ${party} at ${restaurant} restaurant on Friday`,
        bookingRun(restaurant, party),
      );
    }
    expect(await steps(engram, "user-a")).toEqual(["check_availability", "book_table"]);

    const prompts = await run(b, "Book a table for 2 at Nopa restaurant on Friday", bookingRun("Nopa", 2));
    const seen = prompts.map((p) => JSON.stringify(p)).join("\n");
    // B gets the shared procedure, with placeholders where A's values were ...
    expect(seen).toContain("1. check_availability(restaurant={restaurant}, day={day})");
    // ... and nothing of A's traces: no restaurant, no confirmation code, no A's tasks.
    for (const word of PRIVATE) expect(seen).not.toContain(word);
    expect(seen).not.toContain("for 4 at");
    // B's own store holds no skill of A's, and B cannot read A's.
    expect((await engram.skills.list({ userId: "user-b" })).map((s) => s.evidence.length)).toEqual([]);
    await expect(
      engram.skills.get({
        userId: "user-b",
        id: (await engram.skills.list({ userId: "user-a" }))[0]?.id as string,
      }),
    ).rejects.toThrow("no skill");

    await engram.forget({ userId: "user-a" });
    expect(await engram.traces.list({ userId: "user-a" })).toEqual([]);
    expect(await engram.skills.list({ userId: "user-a" })).toEqual([]);
    expect((await engram.stats({ userId: "user-a" })).memories).toBe(0);
    expect(await engram.traces.list({ userId: "user-b" })).toHaveLength(1);
  });

  it("records a trace from a streamed tool run, and none for a turn without tools or with traces off", async () => {
    const env = await tempEngram();
    cleanup.push(env.dispose);
    const memory = engramMiddleware({ engram: env.engram, userId: "ada" });
    cleanup.push(() => memory.close());
    const { model } = scriptedModel([...bookingRun("Nopa", 2), "Hello!"]);
    const wrapped = wrapLanguageModel({ model, middleware: memory });
    const stream = streamText({
      model: wrapped,
      tools: restaurantTools(),
      stopWhen: stepCountIs(5),
      prompt: "Book a table for 2 at Nopa on Friday",
    });
    await stream.consumeStream();
    await generateText({ model: wrapped, prompt: "Just say hello" });
    await memory.flush();
    const traces = await env.engram.traces.list({ userId: "ada" });
    expect(traces.map((t) => [t.task, t.steps.map((s) => s.tool), t.outcome])).toEqual([
      ["Book a table for 2 at Nopa on Friday", ["check_availability", "book_table"], "success"],
    ]);
    const off = engramMiddleware({ engram: env.engram, userId: "bo", traces: false });
    cleanup.push(() => off.close());
    await generateText({
      model: wrapLanguageModel({ model: scriptedModel(bookingRun("Zuni", 3)).model, middleware: off }),
      tools: restaurantTools(),
      stopWhen: stepCountIs(5),
      prompt: "Book a table for 3 at Zuni on Friday",
    });
    await off.flush();
    expect(await env.engram.traces.list({ userId: "bo" })).toEqual([]);
    expect((await env.engram.memories.list({ userId: "bo", kinds: ["message"] })).length).toBe(2);
  });

  it("shares nothing with other users of the agent unless sharing is switched on", async () => {
    const { engram, run } = await setup();
    const a = { userId: "user-a", agentId: "concierge" };
    for (const [restaurant, party] of [
      ["Nopa", 2],
      ["Zuni", 4],
      ["Delfina", 3],
    ] as const) {
      await run(
        a,
        `Book a table for ${party} at ${restaurant} restaurant on Friday`,
        bookingRun(restaurant, party),
      );
    }
    const prompts = await run(
      { userId: "user-b", agentId: "concierge" },
      "Book a table for 2 at Flour restaurant on Friday",
      bookingRun("Flour", 2),
    );
    for (const prompt of prompts) expect(systemText(prompt)).not.toContain("## Skills");
    expect(await engram.skills.list({ agentId: "concierge" })).toEqual([]);
  });
});
