import type { MemoryRecord } from "./memory-record.js";
import { passageCount } from "./search-text.js";

/**
 * Long turns are searched as passages: an assistant's 3,000-character answer holds a dozen topics, and
 * one vector or one full-text entry for all of it matches none of them well (the offline model reads
 * only its first 128 tokens or so). A passage is a run of whole sentences (or lines, for lists and code)
 * of at most PASSAGE_CHARS characters; the turn stays the unit of identity, history and deletion.
 */

/** Characters per passage at most: about 110 tokens of English, within the offline model's window. */
export const PASSAGE_CHARS = 480;

/**
 * Passages of one long turn given a vector by default: none. On the offline model a long turn is found
 * through its passages' full text, as embedding its passages too would about halve the rate of an ingest of
 * long chat histories (docs/benchmarks.md). `createEngram({ embedding: { passages } })` embeds up to that many, spread over the turn (the first and
 * the last always), and the turn's vector is their mean.
 */
export const EMBEDDED_PASSAGES = 0;

/** Whether passage `index` of `count` is embedded when `max` passages of a turn are. */
export function passageEmbedded(index: number, count: number, max = EMBEDDED_PASSAGES): boolean {
  if (max <= 0) return false;
  if (count <= max) return true;
  if (max === 1) return index === 0;
  const step = (count - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => Math.round(i * step)).includes(index);
}

/** One passage of a text: its span, `text.slice(start, end)` trimmed. */
export interface PassageSpan {
  readonly start: number;
  readonly end: number;
}

const sentences = new Intl.Segmenter(undefined, { granularity: "sentence" });
const words = new Intl.Segmenter(undefined, { granularity: "word" });

/** Units no passage splits unless they alone are too long: lines, then sentences within a line. */
function units(text: string): PassageSpan[] {
  const out: PassageSpan[] = [];
  let lineStart = 0;
  for (const line of text.split("\n")) {
    const lineEnd = lineStart + line.length;
    if (line.trim()) {
      for (const s of sentences.segment(line)) {
        const start = lineStart + s.index;
        out.push({ start, end: start + s.segment.length });
      }
    }
    lineStart = lineEnd + 1;
  }
  return out;
}

/** A unit longer than `max` cut at word boundaries (or anywhere, for one huge word). */
function cut(text: string, span: PassageSpan, max: number): PassageSpan[] {
  const out: PassageSpan[] = [];
  let start = span.start;
  let last = start;
  for (const w of words.segment(text.slice(span.start, span.end))) {
    const end = span.start + w.index + w.segment.length;
    if (end - start > max) {
      const at = last > start ? last : start + max;
      out.push({ start, end: at });
      start = at;
    }
    last = end;
  }
  while (span.end - start > max) {
    out.push({ start, end: start + max });
    start += max;
  }
  if (span.end > start) out.push({ start, end: span.end });
  return out;
}

/** Moves a span's ends inward past whitespace. */
function trim(text: string, span: PassageSpan): PassageSpan {
  let { start, end } = span;
  while (start < end && /\s/.test(text[start] as string)) start++;
  while (end > start && /\s/.test(text[end - 1] as string)) end--;
  return { start, end };
}

/**
 * The passages of a text longer than `max` characters: whole lines and sentences packed in order into
 * spans of at most `max` characters, a longer sentence cut between words. A text of at most `max`
 * characters has none (it is searched whole). Deterministic: the same text always gives the same spans.
 */
export function passageSpans(text: string, max = PASSAGE_CHARS): PassageSpan[] {
  if (text.length <= max) return [];
  const out: PassageSpan[] = [];
  let current: PassageSpan | null = null;
  for (const unit of units(text).flatMap((u) => (u.end - u.start > max ? cut(text, u, max) : [u]))) {
    if (current && unit.end - current.start <= max) current = { start: current.start, end: unit.end };
    else {
      if (current) out.push(current);
      current = unit;
    }
  }
  if (current) out.push(current);
  return out.map((span) => trim(text, span)).filter((span) => span.end > span.start);
}

/** The id of a turn's `index`-th passage: derived, so a turn's passages are found without a read. */
export function passageId(turnId: string, index: number): string {
  return `${turnId}~p${index}`;
}

/** The ids of a turn's passages (`metadata.passages` of them). */
export function passageIds(turn: Pick<MemoryRecord, "id" | "metadata">): string[] {
  return Array.from({ length: passageCount(turn) }, (_, i) => passageId(turn.id, i));
}

/** Where a passage sits in its turn (`metadata.passageOf` of a passage record). */
export interface PassageOf {
  readonly turn: string;
  readonly index: number;
  /** How many passages the turn has. */
  readonly of: number;
  readonly start: number;
  readonly end: number;
}

/** A passage record's place in its turn, or null for any other memory. */
export function passageOf(record: Pick<MemoryRecord, "kind" | "metadata">): PassageOf | null {
  if (record.kind !== "passage") return null;
  const p = record.metadata.passageOf as Partial<PassageOf> | undefined;
  return p && typeof p.turn === "string" && typeof p.start === "number" && typeof p.end === "number"
    ? { turn: p.turn, index: Number(p.index ?? 0), of: Number(p.of ?? 1), start: p.start, end: p.end }
    : null;
}

/**
 * A message as stored with its passages: a turn longer than PASSAGE_CHARS gets `metadata.passages` and
 * one `passage` record per span (same scope, speaker, times and metadata, so a metadata filter selects a
 * turn's passages with it; the time mentions that fall inside it). Passages carry no context and no
 * history: they are rebuilt from the turn whenever its text or metadata changes.
 */
export function withPassages(turn: MemoryRecord): { turn: MemoryRecord; passages: MemoryRecord[] } {
  const { passages: _old, ...metadata } = turn.metadata;
  const spans = turn.kind === "message" ? passageSpans(turn.text) : [];
  if (spans.length === 0) return { turn: passageCount(turn) ? { ...turn, metadata } : turn, passages: [] };
  const times = Array.isArray(metadata.times) ? (metadata.times as { text?: unknown }[]) : [];
  const passages = spans.map((span, index) => {
    const text = turn.text.slice(span.start, span.end);
    const inside = times.filter((t) => typeof t.text === "string" && text.includes(t.text));
    // The turn's fact keys are indexed once, with the turn (see fullTextBody), not with every passage.
    const { times: _times, factKeys: _keys, ...own } = metadata;
    return {
      ...turn,
      id: passageId(turn.id, index),
      kind: "passage" as const,
      tier: "short" as const,
      text,
      context: null,
      key: null,
      metadata: {
        ...own,
        passageOf: { turn: turn.id, index, of: spans.length, start: span.start, end: span.end },
        ...(inside.length ? { times: inside } : {}),
      },
    };
  });
  return { turn: { ...turn, metadata: { ...metadata, passages: spans.length } }, passages };
}
