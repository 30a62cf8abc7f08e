import type { MemoryRecord } from "./memory-record.js";

type Searchable = Pick<MemoryRecord, "text" | "name" | "context"> & {
  readonly metadata?: MemoryRecord["metadata"];
};

/**
 * The facts read from a turn when it was added (`metadata.factKeys`, with the `factKeys` option): indexed
 * with it, so a question worded like the fact ("where does the user work") finds the turn that said it.
 */
function factKeys(record: { readonly metadata?: MemoryRecord["metadata"] }): string[] {
  const keys = record.metadata?.factKeys;
  return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === "string" && k !== "") : [];
}

const withKeys = (text: string, record: Searchable): string => {
  const keys = factKeys(record);
  return keys.length ? `${text}\n${keys.join(" ")}` : text;
};

/** The memory's own line as searched: `name: text` when a speaker name is known. */
export function ownLine(record: Pick<MemoryRecord, "text" | "name">): string {
  return record.name ? `${record.name}: ${record.text}` : record.text;
}

/**
 * The line a message leaves as the next turn's `context`: `name: text`, else `role: text`, so the turn can
 * be shown with its speaker when a retrieved reply is shown with it. Stores written before the role was
 * added hold `ownLine` there; `isContextLineOf` accepts both.
 */
export function contextLine(record: Pick<MemoryRecord, "text" | "name" | "role">): string {
  const speaker = record.name || record.role;
  return speaker ? `${speaker}: ${record.text}` : record.text;
}

/** Whether `context` is the line `record` left as the next turn's context (either format). */
export function isContextLineOf(
  context: string | null,
  record: Pick<MemoryRecord, "text" | "name" | "role">,
) {
  return context !== null && (context === contextLine(record) || context === ownLine(record));
}

/**
 * The text both search channels index: the neighbouring context (the turn before, for a message) then the
 * memory's own line. Keeping one definition keeps full-text and vector channels on the same unit.
 */
export function searchText(record: Searchable): string {
  return withKeys(record.context ? `${record.context}\n${ownLine(record)}` : ownLine(record), record);
}

/** How many passages a memory is searched by (`metadata.passages`, set on a long turn); 0 for none. */
export function passageCount(record: Pick<MemoryRecord, "metadata">): number {
  const n = record.metadata.passages;
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/**
 * What the full-text index holds for a memory: its search text, or nothing for a turn searched by its
 * passages (each passage has its own entry, so the long text is not matched a second time as a whole).
 */
export function fullTextBody(record: Searchable & { readonly passages: number }): string {
  return record.passages > 0 ? factKeys(record).join(" ") : searchText(record);
}

/**
 * Characters of a memory's text embedded at most (see `embeddingText`). The offline model costs about a
 * millisecond a token: 320 characters hold a short turn and the start of the one before it (LoCoMo's
 * recall@10 0.79 needs that much; 200 gave 0.787), while a long answer is left to full text.
 */
export const EMBEDDED_CHARS = 320;

/**
 * The text embedded for a memory: its own line first, then the neighbouring context, cut at a word to at
 * most `maxChars` (the turn's own words must come before a long previous turn).
 */
export function embeddingText(record: Searchable, maxChars = EMBEDDED_CHARS): string {
  const own = withKeys(ownLine(record), record);
  return embeddedPart(record.context ? `${own}\n${record.context}` : own, maxChars);
}

/** A text cut at a word to at most `maxChars` characters (anywhere when its first half holds no space). */
export function embeddedPart(text: string, maxChars = EMBEDDED_CHARS): string {
  if (text.length <= maxChars) return text;
  const space = text.lastIndexOf(" ", maxChars);
  return text.slice(0, space > maxChars / 2 ? space : maxChars);
}
