import { ModelError } from "../errors/index.js";

/** Candidate start positions tried before giving up; prose rarely holds more braces than this. */
const MAX_STARTS = 32;
const EXCERPT_CHARS = 120;

/**
 * The first JSON object or array in a model's answer. Small and local models wrap JSON in prose,
 * Markdown fences and reasoning blocks, leave trailing commas, put raw newlines inside strings and
 * quote keys with typographic or single quotes; each of those is repaired here instead of costing a
 * second model call. Throws ModelError (with `details.excerpt`) when no value can be recovered.
 */
export function parseJsonTolerant(text: string): unknown {
  const body = stripReasoning(text);
  for (const source of [...fencedBlocks(body), body]) {
    const found = firstValue(source);
    if (found.ok) return found.value;
  }
  try {
    // A bare scalar (`42`, `"yes"`, `null`) is still a JSON value.
    return JSON.parse(body.trim());
  } catch {
    const excerpt = excerptOf(text);
    throw new ModelError(`model output is not JSON: "${excerpt}"`, { details: { excerpt } });
  }
}

/** Collapsed, shortened text for error messages, so a long ramble does not flood logs. */
export function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}...` : flat;
}

/** Drops reasoning blocks; an unopened closing tag means the template opened it, so drop up to it. */
function stripReasoning(text: string): string {
  let out = text.replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, "");
  const close = out.search(/<\/(think|thinking|reasoning)>/i);
  if (close >= 0) out = out.slice(out.indexOf(">", close) + 1);
  return out;
}

function fencedBlocks(text: string): string[] {
  return [...text.matchAll(/```[a-zA-Z0-9_-]*[^\S\n]*\n?([\s\S]*?)```/g)].map((m) => m[1] ?? "");
}

type Found = { ok: true; value: unknown } | { ok: false };

function firstValue(source: string): Found {
  let tried = 0;
  for (let i = 0; i < source.length && tried < MAX_STARTS; i++) {
    const c = source[i];
    if (c !== "{" && c !== "[") continue;
    tried++;
    // Strict scan first: the lenient one can misread typographic quotes inside valid strings.
    for (const lenient of [false, true]) {
      const candidate = scanValue(source, i, lenient);
      if (candidate === null) continue;
      try {
        return { ok: true, value: JSON.parse(candidate) };
      } catch {
        // try the lenient reading, then the next start position
      }
    }
  }
  return { ok: false };
}

const CLOSER: Record<string, string> = { "{": "}", "[": "]" };
const LOOSE_QUOTES = new Set(["\u201c", "\u201d", "\u2018", "\u2019", "'"]);

/**
 * Copies the balanced value starting at `start`, dropping trailing commas and escaping raw control
 * characters in strings. When `lenient`, typographic and single quotes outside strings open a
 * string that ends at a quote followed by `:`, `,`, `}` or `]`. Returns null when unbalanced.
 */
function scanValue(source: string, start: number, lenient: boolean): string | null {
  const out: string[] = [];
  const stack: string[] = [];
  for (let i = start; i < source.length; i++) {
    const c = source[i] as string;
    if (c === '"' || (lenient && LOOSE_QUOTES.has(c))) {
      i = copyString(source, i, c === '"', out);
      if (i < 0) return null;
      continue;
    }
    if (c === "{" || c === "[") {
      stack.push(CLOSER[c] as string);
    } else if (c === "}" || c === "]") {
      if (stack.pop() !== c) return null;
      dropTrailingComma(out);
    }
    out.push(c);
    if (stack.length === 0) return out.join("");
  }
  return null;
}

/** Copies one string starting at the opening quote `open`; returns the index of its closing quote. */
function copyString(source: string, open: number, standard: boolean, out: string[]): number {
  out.push('"');
  for (let i = open + 1; i < source.length; i++) {
    const c = source[i] as string;
    if (c === "\\") {
      out.push(c, source[i + 1] ?? "");
      i++;
    } else if (standard ? c === '"' : LOOSE_QUOTES.has(c) && endsLooseString(source, i + 1)) {
      out.push('"');
      return i;
    } else if (c === '"') {
      out.push('\\"');
    } else if (c < " ") {
      out.push(c === "\n" ? "\\n" : c === "\t" ? "\\t" : c === "\r" ? "\\r" : " ");
    } else {
      out.push(c);
    }
  }
  return -1;
}

function endsLooseString(source: string, from: number): boolean {
  const rest = source.slice(from).trimStart();
  return rest === "" || /^[:,}\]]/.test(rest);
}

function dropTrailingComma(out: string[]): void {
  let j = out.length - 1;
  while (j >= 0 && /\s/.test(out[j] as string)) j--;
  if (out[j] === ",") out.splice(j, 1);
}
