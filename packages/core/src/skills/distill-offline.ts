import { cosine, queryTerms } from "../model/index.js";
import type { TraceGroup } from "./group-traces.js";
import type { SkillBody, SkillStep, TraceStep } from "./skill-schemas.js";
import type { Trace } from "./trace-record.js";

/** A group's skill before it is stored: the body and the counts behind it. */
export interface Distillation {
  readonly body: SkillBody;
  readonly evidence: string[];
  readonly successes: number;
  readonly failures: number;
  /** Words shared by the group's tasks; the trigger when the body has to be made anonymous. */
  readonly keywords: string[];
}

const MAX_PITFALLS = 5;
const MAX_ERROR_CHARS = 160;

/** Longest common subsequence of two tool sequences. */
export function commonSubsequence(a: readonly string[], b: readonly string[]): string[] {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      const row = table[i] as number[];
      row[j] =
        a[i] === b[j]
          ? ((table[i + 1] as number[])[j + 1] as number) + 1
          : Math.max((table[i + 1] as number[])[j] as number, row[j + 1] as number);
    }
  }
  const out: string[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) {
      out.push(a[i] as string);
      i++;
      j++;
    } else if (((table[i + 1] as number[])[j] as number) >= ((table[i] as number[])[j + 1] as number)) i++;
    else j++;
  }
  return out;
}

/** For each tool of `sequence`, the trace's call that matches it (leftmost embedding), or null. */
function align(sequence: readonly string[], steps: readonly TraceStep[]): (TraceStep | null)[] {
  const out: (TraceStep | null)[] = [];
  let from = 0;
  for (const tool of sequence) {
    const at = steps.findIndex((s, i) => i >= from && s.tool === tool && s.error === undefined);
    out.push(at === -1 ? null : (steps[at] as TraceStep));
    if (at !== -1) from = at + 1;
  }
  return out;
}

function shown(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
}

/** An argument that takes the same value in every run keeps it; one that varies becomes `{name}`. */
function argPattern(calls: readonly TraceStep[]): Record<string, string> {
  const keys = [...new Set(calls.flatMap((c) => Object.keys(c.args)))];
  const pattern: Record<string, string> = {};
  for (const key of keys) {
    const values = new Set(calls.map((c) => (key in c.args ? shown(c.args[key]) : "\u0000")));
    const [only] = values;
    pattern[key] = values.size === 1 && only !== "\u0000" ? (only as string) : `{${key}}`;
  }
  return pattern;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** What the failed runs teach: a step they skipped before a failing call, or the error itself. */
function pitfallsOf(failed: readonly Trace[], sequence: readonly string[]): string[] {
  const out = new Set<string>();
  for (const trace of failed) {
    const used = trace.steps.map((s) => s.tool);
    const failing = [...trace.steps].reverse().find((s) => s.error !== undefined);
    if (failing) {
      const position = sequence.indexOf(failing.tool);
      const calledBefore = new Set(used.slice(0, used.lastIndexOf(failing.tool)));
      const missing = position === -1 ? [] : sequence.slice(0, position).filter((t) => !calledBefore.has(t));
      const error = clip(failing.error ?? "", MAX_ERROR_CHARS);
      out.add(
        missing.length
          ? `Call ${missing.join(", ")} before ${failing.tool}: without it ${failing.tool} failed (${error})`
          : `${failing.tool} can fail (${error})`,
      );
    } else {
      const missing = sequence.filter((t) => !used.includes(t));
      out.add(
        missing.length
          ? `Runs that skipped ${missing.join(", ")} failed`
          : `A run with these steps still failed${trace.answer ? `: ${clip(trace.answer, MAX_ERROR_CHARS)}` : ""}`,
      );
    }
  }
  return [...out].slice(0, MAX_PITFALLS);
}

/** Content words found in most of the tasks, most widespread first. */
export function sharedWords(tasks: readonly string[], limit = 4): string[] {
  const counts = new Map<string, number>();
  for (const task of tasks) {
    for (const word of queryTerms(task)) {
      if (word.length > 2 && !/\d/.test(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  const needed = Math.max(2, Math.ceil(tasks.length * 0.6));
  return [...counts.entries()]
    .filter(([, n]) => n >= needed)
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([word]) => word);
}

/** The member task closest to the group's centroid: the most typical request. */
function typicalTask(group: TraceGroup, successful: readonly Trace[]): string {
  const { centroid } = group;
  let best = successful[0]?.task ?? "";
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const m of group.members) {
    if (m.trace.outcome === "failure" || !centroid || !m.vector) continue;
    const score = cosine(m.vector, centroid);
    if (score > bestScore) {
      best = m.trace.task;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The offline distiller: steps are the tool subsequence every successful run shares, with argument
 * patterns; pitfalls come from the failed runs; name and trigger from the words the tasks share.
 * Null while the group has fewer than `minTraces` successful runs or they share no tool.
 */
export function distillOffline(group: TraceGroup, minTraces: number): Distillation | null {
  const traces = group.members.map((m) => m.trace);
  const successful = traces.filter((t) => t.outcome !== "failure" && t.steps.length > 0);
  if (successful.length < minTraces) return null;
  const sequences = successful.map((t) => t.steps.filter((s) => s.error === undefined).map((s) => s.tool));
  const sequence = sequences.slice(1).reduce(commonSubsequence, sequences[0] as string[]);
  if (sequence.length === 0) return null;
  const aligned = successful.map((t) => align(sequence, t.steps));
  const steps: SkillStep[] = sequence.map((tool, k) => ({
    tool,
    args: argPattern(aligned.map((a) => a[k]).filter((s): s is TraceStep => s !== null && s !== undefined)),
    note: null,
  }));
  const failed = traces.filter((t) => t.outcome === "failure");
  const keywords = sharedWords(traces.map((t) => t.task));
  const name = keywords.length ? keywords.slice(0, 3).join(" ") : sequence.join(" then ");
  const example = typicalTask(group, successful);
  return {
    body: {
      name,
      trigger: `Tasks like "${clip(example, 200)}"${keywords.length ? ` (about: ${keywords.join(", ")})` : ""}`,
      steps,
      pitfalls: pitfallsOf(failed, sequence),
    },
    evidence: traces.map((t) => t.id),
    successes: successful.length,
    failures: failed.length,
    keywords,
  };
}

/** Share of successful runs, damped while there are few: 3 of 3 gives 0.75, 9 of 10 about 0.82. */
export function confidenceOf(successes: number, failures: number): number {
  const total = successes + failures;
  if (total === 0) return 0;
  return Math.round((successes / total) * (total / (total + 1)) * 100) / 100;
}
