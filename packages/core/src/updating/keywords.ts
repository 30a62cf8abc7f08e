import { queryTerms, tokenize } from "../model/index.js";

/** Content words of a text ranked by frequency then first appearance; the offline stand-in for keywords. */
export function extractKeywords(text: string, limit = 8): string[] {
  const counts = new Map<string, number>();
  const content = new Set(queryTerms(text));
  for (const token of tokenize(text)) {
    if (content.has(token) && token.length > 2 && !/^\d+$/.test(token))
      counts.set(token, (counts.get(token) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([word]) => word);
}

export function jaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const setB = new Set(b);
  const inter = a.filter((x) => setB.has(x)).length;
  return inter / (a.length + b.length - inter);
}

/** An extractive summary: the first sentence of each line, clipped, joined; no model needed. */
export function extractiveSummary(lines: readonly string[], maxChars = 300): string {
  const parts: string[] = [];
  let size = 0;
  for (const line of lines) {
    const first = (line.match(/^[^.!?\n]*[.!?]?/)?.[0] ?? line).trim();
    if (!first) continue;
    if (size + first.length > maxChars && parts.length > 0) break;
    parts.push(first.length > maxChars ? `${first.slice(0, maxChars - 1)}…` : first);
    size += first.length + 1;
  }
  return parts.join(" ");
}
