// The demo's recall section: each question gets the memory context an agent would put in its prompt
// (engram.retrieve within a token budget); the demo checks whether the expected phrase made it in, and
// shows which memories carry it.
import type { Engram, RetrieveResult } from "@engram/core";
import type { RecallQuestion } from "./demo-data.js";
import { day, say, shortId } from "./demo-format.js";

export interface RecallScore {
  readonly answered: number;
  readonly total: number;
  readonly tokens: number[];
}

/** Up to `width` characters of `text` around the first occurrence of `phrase`. */
function excerpt(text: string, phrase: string, width = 76): string {
  const flat = text.replace(/\s+/g, " ");
  const at = flat.toLowerCase().indexOf(phrase.toLowerCase());
  const start = Math.max(0, Math.min(at - Math.floor(width / 3), flat.length - width));
  const body = flat.slice(start, start + width);
  return `"${start > 0 ? "…" : ""}${body}${start + width < flat.length ? "…" : ""}"`;
}

/** The memories in the assembled context that carry the phrase, by section. */
function evidence(result: RetrieveResult, phrase: string): string[] {
  const has = (text: string) => text.toLowerCase().includes(phrase.toLowerCase());
  const { context } = result;
  const leads = new Set(context.withLead);
  return [
    ...context.profile.filter((t) => has(t.value)).map((t) => `profile  ${t.key} = ${t.value}`),
    ...context.facts.filter((f) => has(f.text)).map((f) => `fact     ${shortId(f.id)} ${f.text}`),
    ...context.pages
      .filter((p) => has(p.text))
      .map(
        (p) => `page     ${shortId(p.id)} ${p.sessionId} ${day(p.at)} ${p.role}: ${excerpt(p.text, phrase)}`,
      ),
    ...context.pages
      .filter((p) => p.before && leads.has(p.id) && has(p.before))
      .map((p) => `before   ${shortId(p.id)} the turn it answers: ${excerpt(p.before as string, phrase)}`),
    ...context.recent
      .filter((m) => has(m.text))
      .map((m) => `recent   ${shortId(m.id)} ${day(m.at)} ${m.role}: ${excerpt(m.text, phrase)}`),
  ];
}

function sizes(result: RetrieveResult): string {
  const { context } = result;
  const cut = context.dropped.pages ? ` (${context.dropped.pages} cut by the budget)` : "";
  return (
    `${context.tokens} tokens: profile ${context.profile.length}, ` +
    `facts ${context.facts.length}/${result.facts.length}, ` +
    `pages ${context.pages.length}/${result.pages.length}${cut}, recent ${context.recent.length} turns`
  );
}

/** Why a phrase is missing: retrieved but cut by the budget, or not retrieved at all. */
function missReason(result: RetrieveResult, phrase: string): string {
  const has = (text: string) => text.toLowerCase().includes(phrase.toLowerCase());
  const retrieved = [...result.facts, ...result.pages].some((r) => has(r.text));
  return retrieved ? "retrieved, but it did not fit the budget" : "no retrieved memory contains it";
}

export async function askAll(
  engram: Engram,
  input: { userId: string; questions: readonly RecallQuestion[]; budgetTokens: number },
): Promise<RecallScore> {
  const { userId, questions, budgetTokens } = input;
  const score = { answered: 0, total: questions.length, tokens: [] as number[] };
  for (const [i, { question, expect }] of questions.entries()) {
    const result = await engram.retrieve({ userId, query: question, budgetTokens });
    score.tokens.push(result.context.tokens);
    if (i === 0) {
      say(
        `engram.retrieve({ userId: "${userId}", query: ${JSON.stringify(question)}, budgetTokens: ${budgetTokens} }).text:`,
      );
      say(result.text.replace(/^/gm, "  | "));
    }
    say(`\nQ${i + 1}: ${question}`);
    say(`    context ${sizes(result)}`);
    const found = result.text.toLowerCase().includes(expect.toLowerCase());
    if (!found) {
      say(`    MISS: "${expect}" is not in the context (${missReason(result, expect)})`);
      continue;
    }
    score.answered++;
    const where = evidence(result, expect);
    say(`    found "${expect}" in ${where.length} item${where.length === 1 ? "" : "s"}:`);
    for (const line of where.slice(0, 3)) say(`      ${line}`);
    if (where.length > 3) say(`      … and ${where.length - 3} more`);
  }
  return score;
}
