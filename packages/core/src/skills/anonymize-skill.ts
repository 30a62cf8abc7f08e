import type { SkillMeta } from "./skill-record.js";
import type { Trace } from "./trace-record.js";

const WORD = /[\p{L}\p{N}@._'-]+/gu;

function stringsIn(value: unknown, out: string[]): void {
  if (typeof value === "string") out.push(value);
  else if (typeof value === "number") out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) stringsIn(v, out);
}

/**
 * Words that may identify the user: every word of an argument value, words of results and errors that
 * look like identifiers (a capital, a digit or an @), and capitalised words inside the task text (names).
 */
function personalWords(traces: readonly Trace[]): Set<string> {
  const out = new Set<string>();
  const add = (word: string) => {
    const clean = word.replace(/^[._'-]+|[._'-]+$/g, "");
    if (clean.length >= 2) out.add(clean.toLowerCase());
  };
  for (const trace of traces) {
    const argValues: string[] = [];
    const outputs: string[] = [];
    for (const step of trace.steps) {
      stringsIn(step.args, argValues);
      stringsIn(step.result, outputs);
      if (step.error) outputs.push(step.error);
    }
    for (const value of argValues) for (const word of value.match(WORD) ?? []) add(word);
    for (const value of outputs)
      for (const word of value.match(WORD) ?? []) if (/[\p{Lu}\d@]/u.test(word)) add(word);
    const words = trace.task.match(WORD) ?? [];
    words.forEach((word, i) => {
      if (i > 0 && /^\p{Lu}/u.test(word)) add(word);
    });
  }
  return out;
}

/** Replaces personal words with `{value}` and any number with `{number}`. */
function scrub(text: string, personal: Set<string>): string {
  return text.replace(WORD, (word) => {
    const clean = word.replace(/^[._'-]+|[._'-]+$/g, "").toLowerCase();
    if (personal.has(clean)) return "{value}";
    return /\d/.test(word) ? "{number}" : word;
  });
}

/**
 * The agent-level copy of a skill: every argument becomes a placeholder, words that may identify the
 * user are replaced, the trigger keeps only the shared task words, and the trace ids are dropped.
 */
export function anonymizeSkill(meta: SkillMeta, traces: readonly Trace[]): SkillMeta {
  const personal = personalWords(traces);
  const keywords = meta.keywords.filter((w) => !personal.has(w.toLowerCase()) && !/\d/.test(w));
  const name = scrub(meta.name, personal);
  return {
    ...meta,
    name: name.includes("{") && keywords.length ? keywords.slice(0, 3).join(" ") : name,
    trigger: keywords.length
      ? `Tasks about: ${keywords.join(", ")}`
      : `Tasks using ${meta.steps.map((s) => s.tool).join(", ")}`,
    steps: meta.steps.map((s) => ({
      tool: s.tool,
      args: Object.fromEntries(Object.keys(s.args).map((k) => [k, `{${k}}`])),
      note: s.note ? scrub(s.note, personal) : null,
    })),
    pitfalls: meta.pitfalls.map((p) => scrub(p, personal)),
    evidence: [],
    keywords,
    visibility: "agent",
  };
}
