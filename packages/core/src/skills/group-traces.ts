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

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

function toolSet(trace: Trace): Set<string> {
  return new Set(trace.steps.map((s) => s.tool));
}

/** Jaccard of the tools used; 1 when either trace used none (a failed run may stop before any call). */
function toolOverlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 1;
  let inter = 0;
  for (const tool of a) if (b.has(tool)) inter++;
  return inter / (a.size + b.size - inter);
}

/** Word-level Jaccard of the task texts: the stand-in for embeddings when there is no embedder. */
function wordOverlap(a: string, b: string): number {
  const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const x = words(a);
  const y = words(b);
  let inter = 0;
  for (const w of x) if (y.has(w)) inter++;
  return x.size + y.size === 0 ? 0 : inter / (x.size + y.size - inter);
}

// Tools in common for two traces to be the same procedure: at least a third of what either used.
const MIN_TOOL_OVERLAP = 1 / 3;

/**
 * Groups traces by the meaning of their task and the tools they used: each trace joins the group whose
 * centroid is most similar (at least `similarity`) and whose tools overlap its own, else starts a group.
 * Greedy in time order, so a group never loses traces it had when more arrive.
 */
export function groupTraces(traces: readonly EmbeddedTrace[], similarity: number): TraceGroup[] {
  const groups: { members: EmbeddedTrace[]; sum: Float32Array | null; tools: Set<string> }[] = [];
  for (const item of traces) {
    const tools = toolSet(item.trace);
    let best: (typeof groups)[number] | null = null;
    let bestScore = similarity;
    for (const group of groups) {
      if (toolOverlap(tools, group.tools) < MIN_TOOL_OVERLAP) continue;
      const score =
        item.vector && group.sum
          ? cosine(item.vector, group.sum)
          : Math.max(...group.members.map((m) => wordOverlap(m.trace.task, item.trace.task)));
      if (score >= bestScore) {
        best = group;
        bestScore = score;
      }
    }
    if (best) {
      best.members.push(item);
      for (const tool of tools) best.tools.add(tool);
      const { sum } = best;
      if (sum && item.vector) {
        for (let i = 0; i < sum.length; i++) sum[i] = (sum[i] as number) + (item.vector[i] as number);
      }
    } else {
      groups.push({ members: [item], sum: item.vector ? Float32Array.from(item.vector) : null, tools });
    }
  }
  return groups.map((g) => ({ members: g.members, centroid: g.sum ? unit(g.sum) : null }));
}

function unit(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  return norm > 0 ? v.map((x) => x / norm) : v;
}
