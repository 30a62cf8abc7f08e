// The procedural benchmark: scripted agents (mock models that call tools through generateText and the
// Engram middleware) run tasks of a few families, some runs failing; we measure after how many traces a
// family's skill appears, whether new tasks of the family (and unrelated ones) get the right skill in their
// context, the tokens that adds, and the language-model calls per trace when a model distils.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from "@ai-sdk/provider";
import { engramMiddleware } from "@engram/ai-sdk";
import { createEngram, type Engram, type EngramOptions } from "@engram/core";
import { defaultTokenizer } from "@engram/core/integration";
import { generateText, jsonSchema, stepCountIs, type Tool, tool, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { FAMILIES, type Family, fill, random, UNRELATED } from "./skill-families.js";

export const SKILLS_METHOD =
  "Five task families (restaurant booking, flight booking, expense report, meeting scheduling, bug triage), each a three-tool procedure. " +
  "A scripted agent (MockLanguageModelV4 answering with tool calls, run by generateText through engramMiddleware) runs requests of the families in turn, " +
  "worded from four templates per family with random slot values; a run fails with probability 0.25 (it skips the first tool and the second one errors), and a third of the runs call an extra lookup tool first. " +
  "After every run the queue is flushed (the distillation job runs) and the skills are attributed to the family most of their evidence comes from. " +
  "Then new requests of each family, worded from three held-out templates (two fills each), and 20 unrelated requests go through engram.retrieve; a shown skill is correct when it is the query's family's. " +
  "Tokens added: the skills section of the context (heading and lines, o200k). LLM calls per trace: the same runs on an engine with a language model (a mock that returns the offline draft), counted with onModelCall; tiers off, so every call is a skill distillation.";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

type Step = string | { tool: string; input: Record<string, string> };

function scriptedModel(steps: Step[]) {
  let next = 0;
  return new MockLanguageModelV4({
    doGenerate: async (): Promise<LanguageModelV4GenerateResult> => {
      const step = steps[next++] ?? "Done.";
      if (typeof step === "string") {
        return {
          content: [{ type: "text", text: step }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
          warnings: [],
        };
      }
      return {
        content: [
          {
            type: "tool-call",
            toolCallId: `call-${next}`,
            toolName: step.tool,
            input: JSON.stringify(step.input),
          },
        ],
        finishReason: { unified: "tool-calls", raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

/** A tool input schema: these string arguments, all required. */
function stringArgs(names: readonly string[]) {
  return jsonSchema<Record<string, string>>({
    type: "object",
    properties: Object.fromEntries(names.map((n) => [n, { type: "string" }])),
    required: [...names],
  });
}

/** The family's tools for one run: each fails unless the tool before it ran (the procedure's order). */
function familyTools(family: Family): Record<string, Tool> {
  const done = new Set<string>();
  const tools: Record<string, Tool> = {
    lookup_notes: tool({
      description: "Reads the user's notes",
      inputSchema: stringArgs(["about"]),
      execute: async () => ({ notes: [] }),
    }),
  };
  family.tools.forEach(({ tool: name, args }, i) => {
    tools[name] = tool({
      description: name.replaceAll("_", " "),
      inputSchema: stringArgs(args),
      execute: async () => {
        const before = family.tools[i - 1]?.tool;
        if (before && !done.has(before)) throw new Error(`${name} needs ${before} first`);
        done.add(name);
        return { ok: true };
      },
    });
  });
  return tools;
}

interface Run {
  readonly family: Family;
  readonly text: string;
  /** Skips the first tool, so the second one fails. */
  readonly failed: boolean;
  /** Calls an extra lookup tool first (noise the common subsequence must drop). */
  readonly extra: boolean;
}

async function agentRun(
  engram: Engram,
  middleware: ReturnType<typeof engramMiddleware>,
  run: Run,
  slots: Record<string, string>,
) {
  const args = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, slots[n] ?? n]));
  const procedure = run.failed ? run.family.tools.slice(1, 2) : run.family.tools;
  const steps: Step[] = procedure.map((t) => ({ tool: t.tool, input: args(t.args) }));
  if (run.extra) steps.unshift({ tool: "lookup_notes", input: { about: "task" } });
  steps.push(run.failed ? "Sorry, I could not finish that." : "All done.");
  await generateText({
    model: wrapLanguageModel({ model: scriptedModel(steps), middleware }),
    tools: familyTools(run.family),
    stopWhen: stepCountIs(8),
    prompt: run.text,
  });
  await middleware.flush();
  await engram.flush();
}

export interface FamilyFigures {
  readonly family: string;
  /** Traces of the family (all, and successful) when its skill first appeared; null if it never did. */
  readonly skillAfter: { readonly traces: number; readonly successes: number } | null;
  readonly steps: string[];
  readonly queries: number;
  /** Share of the family's new requests whose context shows the family's skill. */
  readonly recall: number;
}

export interface SkillsRunFigures {
  readonly embedder: string;
  readonly traces: number;
  readonly failedTraces: number;
  readonly families: FamilyFigures[];
  /** Shown skills that were the query's family's, over all shown skills (family and unrelated queries). */
  readonly precision: number;
  readonly recall: number;
  readonly unrelated: { readonly queries: number; readonly withSkill: number };
  readonly skillsPerContext: number;
  readonly tokensAdded: { readonly mean: number; readonly max: number };
  /** Skills whose evidence mixes families. */
  readonly impureSkills: number;
}

export interface SkillsFigures {
  readonly method: string;
  readonly seed: number;
  readonly runsPerFamily: number;
  readonly runs: SkillsRunFigures[];
  readonly llm: {
    readonly traces: number;
    readonly skills: number;
    readonly calls: number;
    readonly callsPerTrace: number;
  };
}

function plan(runsPerFamily: number, seed: number): { run: Run; slots: Record<string, string> }[] {
  const next = random(seed);
  const out: { run: Run; slots: Record<string, string> }[] = [];
  for (let i = 0; i < runsPerFamily; i++) {
    for (const family of FAMILIES) {
      const template = family.train[Math.floor(next() * family.train.length)] as string;
      const { text, slots } = fill(template, family.values, next);
      out.push({ run: { family, text, failed: next() < 0.25, extra: next() < 1 / 3 }, slots });
    }
  }
  return out;
}

async function openEngine(dir: string, name: string, options: EngramOptions): Promise<Engram> {
  return createEngram({ path: join(dir, `${name}.db`), tiers: false, background: false, ...options });
}

/** Family of each skill: where most of its evidence comes from; and whether that evidence is mixed. */
async function skillFamilies(engram: Engram, userId: string, familyOf: Map<string, string>) {
  const out = new Map<string, { family: string; pure: boolean; steps: string[] }>();
  for (const skill of await engram.skills.list({ userId, limit: 1000 })) {
    const counts = new Map<string, number>();
    for (const id of skill.evidence) {
      const f = familyOf.get(id);
      if (f) counts.set(f, (counts.get(f) ?? 0) + 1);
    }
    const [best] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
    if (best)
      out.set(skill.id, { family: best[0], pure: counts.size === 1, steps: skill.steps.map((s) => s.tool) });
  }
  return out;
}

async function measureRun(
  dir: string,
  label: string,
  options: EngramOptions,
  runsPerFamily: number,
  seed: number,
) {
  const engram = await openEngine(dir, label, options);
  const middleware = engramMiddleware({ engram, userId: "bench" });
  const familyOf = new Map<string, string>();
  const seen = new Map<string, { traces: number; successes: number }>();
  const firstSkill = new Map<string, { traces: number; successes: number }>();
  let failedTraces = 0;
  for (const { run, slots } of plan(runsPerFamily, seed)) {
    await agentRun(engram, middleware, run, slots);
    // The run's trace: the one not seen before (times may tie within a millisecond).
    for (const trace of await engram.traces.list({ userId: "bench", limit: 5 })) {
      if (!familyOf.has(trace.id)) familyOf.set(trace.id, run.family.name);
    }
    const counts = seen.get(run.family.name) ?? { traces: 0, successes: 0 };
    const now = { traces: counts.traces + 1, successes: counts.successes + (run.failed ? 0 : 1) };
    seen.set(run.family.name, now);
    if (run.failed) failedTraces++;
    const skills = await skillFamilies(engram, "bench", familyOf);
    for (const s of skills.values())
      if (!firstSkill.has(s.family) && s.family === run.family.name) firstSkill.set(s.family, now);
  }
  const skills = await skillFamilies(engram, "bench", familyOf);
  const evalRandom = random(seed + 2);
  let shown = 0;
  let correct = 0;
  const tokens: number[] = [];
  const families: FamilyFigures[] = [];
  const heading = defaultTokenizer.count("## Skills (procedures that worked before for this kind of task)\n");
  const ask = async (query: string) => {
    const r = await engram.retrieve({ userId: "bench", query });
    const ids = r.context.skills.map((s) => s.id);
    if (ids.length)
      tokens.push(
        heading + r.context.skills.reduce((n, s) => n + defaultTokenizer.count(`- ${s.text}\n`), 0),
      );
    return ids.map((id) => skills.get(id)?.family ?? "?");
  };
  let recalled = 0;
  let asked = 0;
  for (const family of FAMILIES) {
    let hits = 0;
    let queries = 0;
    for (const template of family.test) {
      for (let k = 0; k < 2; k++) {
        const shownFamilies = await ask(fill(template, family.values, evalRandom).text);
        queries++;
        shown += shownFamilies.length;
        correct += shownFamilies.filter((f) => f === family.name).length;
        if (shownFamilies.includes(family.name)) hits++;
      }
    }
    recalled += hits;
    asked += queries;
    const own = [...skills.values()].find((s) => s.family === family.name);
    families.push({
      family: family.name,
      skillAfter: firstSkill.get(family.name) ?? null,
      steps: own?.steps ?? [],
      queries,
      recall: round(hits / queries),
    });
  }
  let withSkill = 0;
  for (const query of UNRELATED) {
    const shownFamilies = await ask(query);
    shown += shownFamilies.length;
    if (shownFamilies.length) withSkill++;
  }
  await middleware.close();
  const traces = (await engram.traces.list({ userId: "bench", limit: 10_000 })).length;
  await engram.close();
  const figures: SkillsRunFigures = {
    embedder: label,
    traces,
    failedTraces,
    families,
    precision: round(shown ? correct / shown : 1),
    recall: round(recalled / asked),
    unrelated: { queries: UNRELATED.length, withSkill },
    skillsPerContext: round(tokens.length ? shown / tokens.length : 0),
    tokensAdded: { mean: Math.round(mean(tokens)), max: Math.max(0, ...tokens) },
    impureSkills: [...skills.values()].filter((s) => !s.pure).length,
  };
  return figures;
}

/** A language model that answers a distillation with the offline draft it was shown. */
function draftEchoModel() {
  return new MockLanguageModelV4({
    doGenerate: async (options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> => {
      const marker = "Draft from the common tool sequence (improve it): ";
      const text = options.prompt
        .flatMap((m) =>
          m.role === "user" ? m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])) : [],
        )
        .join("\n");
      const line = text.split("\n").find((l) => l.startsWith(marker));
      const draft = line ? JSON.parse(line.slice(marker.length)) : {};
      return {
        content: [{ type: "text", text: JSON.stringify(draft) }],
        finishReason: { unified: "stop", raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

const round = (x: number) => Math.round(x * 100) / 100;
const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export async function skillsBench(
  options: { runsPerFamily?: number; seed?: number; log?: (m: string) => void } = {},
): Promise<SkillsFigures> {
  const runsPerFamily = options.runsPerFamily ?? 8;
  const seed = options.seed ?? 11;
  const log = options.log ?? (() => {});
  const dir = mkdtempSync(join(tmpdir(), "engram-skills-bench-"));
  try {
    log("skills: offline embedder (USE-lite)");
    const offline = await measureRun(dir, "USE-lite", {}, runsPerFamily, seed);
    log("skills: no embedder (word overlap)");
    const none = await measureRun(dir, "none", { embedder: null }, runsPerFamily, seed);
    log("skills: with a language model (calls per trace)");
    let calls = 0;
    const llmEngine = await openEngine(dir, "llm", {
      llm: draftEchoModel(),
      onModelCall: () => void calls++,
    });
    const middleware = engramMiddleware({ engram: llmEngine, userId: "bench" });
    const runs = plan(runsPerFamily, seed);
    for (const { run, slots } of runs) await agentRun(llmEngine, middleware, run, slots);
    await middleware.close();
    const skills = await llmEngine.skills.list({ userId: "bench" });
    if (skills.length === 0 || skills.some((s) => s.source !== "model")) {
      throw new Error("skills bench: the model distiller did not run");
    }
    await llmEngine.close();
    return {
      method: SKILLS_METHOD,
      seed,
      runsPerFamily,
      runs: [offline, none],
      llm: { traces: runs.length, skills: skills.length, calls, callsPerTrace: round(calls / runs.length) },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures as the markdown tables docs/skills.md shows. */
export function skillsTables(f: SkillsFigures): string {
  const lines: string[] = [];
  lines.push(
    "| embedder | traces (failed) | skill precision | skill recall, new tasks | unrelated tasks given a skill | skills per context | tokens added (mean / max) | mixed skills |",
  );
  lines.push("| --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const r of f.runs) {
    lines.push(
      `| ${r.embedder} | ${r.traces} (${r.failedTraces}) | ${r.precision} | ${r.recall} | ${r.unrelated.withSkill} of ${r.unrelated.queries} | ${r.skillsPerContext} | ${r.tokensAdded.mean} / ${r.tokensAdded.max} | ${r.impureSkills} |`,
    );
  }
  lines.push("");
  lines.push("| family | skill after traces (successful) | steps | recall, USE-lite | recall, no embedder |");
  lines.push("| --- | --- | --- | --- | --- |");
  const [a, b] = f.runs;
  for (const [i, fam] of (a?.families ?? []).entries()) {
    const after = fam.skillAfter ? `${fam.skillAfter.traces} (${fam.skillAfter.successes})` : "never";
    lines.push(
      `| ${fam.family} | ${after} | ${fam.steps.join(" → ") || "-"} | ${fam.recall} | ${b?.families[i]?.recall ?? "-"} |`,
    );
  }
  lines.push("");
  lines.push(
    `LLM calls per trace with a language model configured (USE-lite): ${f.llm.callsPerTrace} (${f.llm.calls} calls for ${f.llm.traces} traces, ${f.llm.skills} skills).`,
  );
  return lines.join("\n");
}
