import { normalize } from "../model/index.js";

/** How a long text is cut for an embedding model. */
export interface WindowOptions {
  /** Characters per window at most. */
  readonly windowChars: number;
  /** Windows embedded per text at most, spread evenly over it. */
  readonly maxWindows: number;
}

/**
 * The offline embedder's tokenizer is quadratic in a text's length, so long texts go as a few windows
 * (measurements in docs/benchmarks.md, "Long texts"); 8,000 characters fit API models' input limits too.
 */
export const DEFAULT_WINDOW_OPTIONS: WindowOptions = { windowChars: 8000, maxWindows: 4 };

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** Where to end a window starting at `start`: at a space in its last quarter if any, never inside a pair. */
function windowEnd(text: string, start: number, size: number): number {
  const hardEnd = start + size;
  if (hardEnd >= text.length) return text.length;
  const floor = start + Math.floor((size * 3) / 4);
  for (let i = hardEnd; i > floor; i--) if (/\s/.test(text[i] as string)) return i;
  return isHighSurrogate(text.charCodeAt(hardEnd - 1)) ? hardEnd - 1 : hardEnd;
}

/**
 * Cuts `text` into windows of at most `windowChars` (linear in its length) and keeps at most `maxWindows`
 * of them, evenly spaced from the first to the last, so an embedding's cost is bounded per text while it
 * still sees the whole text's span. A short text is one window: itself.
 */
export function embeddingWindows(text: string, options: WindowOptions = DEFAULT_WINDOW_OPTIONS): string[] {
  if (text.length <= options.windowChars) return [text];
  const all: string[] = [];
  for (let start = 0; start < text.length; ) {
    const end = windowEnd(text, start, options.windowChars);
    all.push(text.slice(start, end));
    start = end;
  }
  if (all.length <= options.maxWindows) return all;
  if (options.maxWindows === 1) return [all[0] as string];
  const step = (all.length - 1) / (options.maxWindows - 1);
  return Array.from({ length: options.maxWindows }, (_, i) => all[Math.round(i * step)] as string);
}

/** One vector for a text from its windows' unit vectors: their mean weighted by length, made unit again. */
export function combineWindows(vectors: readonly Float32Array[], lengths: readonly number[]): Float32Array {
  const first = vectors[0] as Float32Array;
  if (vectors.length === 1) return first;
  const out = new Float32Array(first.length);
  vectors.forEach((v, w) => {
    const weight = lengths[w] as number;
    for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) + (v[i] as number) * weight;
  });
  return normalize(out);
}
