import { cosine, normalize, queryTerms } from "../model/index.js";
import type { Trace } from "./trace-record.js";

/** A trace with the embedding of its task (null without an embedder). */
export interface EmbeddedTrace {
  readonly trace: Trace;
  readonly vector: Float32Array | null;
}

/** Traces of one kind of task, oldest first, with the normalised centroid of their task embeddings. */
export interface TraceGroup {
  readonly members: EmbeddedTrace[];
  readonly centroid: Float32Array | null;
}

function toolSet(trace: Trace): Set<string> {
  return new Set(trace.steps.map((s) => s.tool));
}

/**
 * Overlap coefficient of the tools used (shared over the smaller set), so a failed run that stopped early
 * or a run with one extra call still matches; 1 when either used none. Each tool weighs its inverse
 * frequency over the traces, so a helper many kinds of task call counts for less than a specific tool.
 */
function toolOverlap(a: Set<string>, b: Set<string>, weight: (tool: string) => number): number {
  if (a.size === 0 || b.size === 0) return 1;
  const sum = (tools: Iterable<string>) => [...tools].reduce((s, t) => s + weight(t), 0);
  const shared = sum([...a].filter((t) => b.has(t)));
  return shared / Math.min(sum(a), sum(b));
}

/** Inverse document frequency of each tool over the traces: ln(1 + traces / traces using it). */
function toolWeights(traces: readonly EmbeddedTrace[]): (tool: string) => number {
  const df = new Map<string, number>();
  for (const { trace } of traces) for (const tool of toolSet(trace)) df.set(tool, (df.get(tool) ?? 0) + 1);
  return (tool) => Math.log(1 + traces.length / (df.get(tool) ?? 1));
}

/** Dice coefficient of the tasks' content words: the stand-in for embeddings when there is no embedder. */
function wordOverlap(a: string, b: string): number {
  const x = new Set(queryTerms(a));
  const y = new Set(queryTerms(b));
  let inter = 0;
  for (const w of x) if (y.has(w)) inter++;
  return x.size + y.size === 0 ? 0 : (2 * inter) / (x.size + y.size);
}

// Tools in common for two traces to be the same procedure: at least half of the smaller set.
const MIN_TOOL_OVERLAP = 0.5;
// Without embeddings, words are a weaker signal than meaning: the tools carry the grouping, and a few
// shared content words suffice.
const MIN_WORD_OVERLAP = 0.25;

/**
 * The tools most of a group's runs used: a helper tool some runs call (a lookup, a search) must not pull
 * runs of another kind of task into the group.
 */
function coreTools(counts: Map<string, number>, members: number): Set<string> {
  return new Set([...counts].filter(([, n]) => n * 2 >= members).map(([tool]) => tool));
}

/**
 * Groups traces by the meaning of their task and the tools they used: each trace joins the group whose
 * centroid is most similar (at least `similarity`) and whose core tools overlap its own, else starts a
 * group. Greedy in time order; every distillation groups the traces afresh, and a skill follows the group
 * that shares most of its evidence.
 */
export function groupTraces(traces: readonly EmbeddedTrace[], similarity: number): TraceGroup[] {
  const groups: { members: EmbeddedTrace[]; sum: Float32Array | null; tools: Map<string, number> }[] = [];
  const weight = toolWeights(traces);
  for (const item of traces) {
    const tools = toolSet(item.trace);
    let best: (typeof groups)[number] | null = null;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const group of groups) {
      const core = coreTools(group.tools, group.members.length);
      if (toolOverlap(tools, core, weight) < MIN_TOOL_OVERLAP) continue;
      const embedded = item.vector !== null && group.sum !== null;
      const score =
        item.vector && group.sum
          ? cosine(item.vector, group.sum)
          : Math.max(...group.members.map((m) => wordOverlap(m.trace.task, item.trace.task)));
      if (score >= (embedded ? similarity : MIN_WORD_OVERLAP) && score >= bestScore) {
        best = group;
        bestScore = score;
      }
    }
    if (best) {
      best.members.push(item);
      for (const tool of tools) best.tools.set(tool, (best.tools.get(tool) ?? 0) + 1);
      const { sum } = best;
      if (sum && item.vector) {
        for (let i = 0; i < sum.length; i++) sum[i] = (sum[i] as number) + (item.vector[i] as number);
      }
    } else {
      const counts = new Map([...tools].map((tool) => [tool, 1]));
      groups.push({
        members: [item],
        sum: item.vector ? Float32Array.from(item.vector) : null,
        tools: counts,
      });
    }
  }
  return groups.map((g) => ({ members: g.members, centroid: g.sum ? normalize(g.sum) : null }));
}
