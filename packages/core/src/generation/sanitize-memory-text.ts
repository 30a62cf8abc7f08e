/**
 * Makes stored text safe to place inside the `<memory>` block: one line, no control or invisible
 * characters, no fence tags, no chat-template special tokens and nothing that reads as one of the block's
 * own section headings. Stored text comes from users and models, so it must never be able to close the
 * block or pose as a new section or instruction.
 */
export function sanitizeMemoryText(text: string): string {
  let out = text.replace(LONE_SURROGATE, "\uFFFD");
  // NFKC first: fullwidth and small-form lookalikes ("＜/memory＞", "﹤|endoftext|﹥") become plain ASCII,
  // so the checks below see them.
  out = out.normalize("NFKC");
  out = out.replace(LINE_BREAKS, " ").replace(CONTROL_CHARS, "").replace(INVISIBLE_CHARS, "");
  out = out.replace(/\s+/g, " ").trim();
  out = out.replace(FENCE_TAG, (tag) => tag.replace(/^</, "‹").replace(/>$/, "›"));
  out = out.replaceAll("<|", "‹|").replaceAll("|>", "|›");
  out = out.replace(HEADING_MARKER, (_match, before: string, hashes: string) => `${before}\\${hashes}`);
  out = out.replace(/`{3,}/g, "``");
  return out;
}

/** Like {@link sanitizeMemoryText}, also capped in length: for short labels (names, roles, profile keys). */
export function sanitizeLabel(text: string, maxChars: number): string {
  const clean = sanitizeMemoryText(text);
  if (clean.length <= maxChars) return clean;
  return `${sliceAtCodePoint(clean, maxChars - 1).trimEnd()}…`;
}

/** `text.slice(0, end)` moved back one unit when `end` would split a surrogate pair. */
export function sliceAtCodePoint(text: string, end: number): string {
  const cut = end > 0 && end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
  return text.slice(0, cut);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// Newline-like characters become spaces so one stored item is always one rendered line.
const LINE_BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
const CONTROL_CHARS = /[\u0000-\u001F\u007F-\u009F]/g;
// Format characters (zero-width spaces, bidi overrides, BOM) can hide a tag from the checks or reorder
// what a reader sees. ZWJ and ZWNJ stay (emoji sequences, Persian and Indic scripts); the fence check
// tolerates them instead.
const INVISIBLE_CHARS = /(?![\u200C\u200D])\p{Cf}/gu;
const ZW_JOINERS = "[\\u200C\\u200D]*";
const FENCE_TAG = new RegExp(
  `<${ZW_JOINERS}\\s*/?\\s*${ZW_JOINERS}${[..."memory"].join(ZW_JOINERS)}\\b[^<>]*>?`,
  "giu",
);
// A run of `#` standing alone as a word reads as a markdown heading marker, as in "## Profile".
const HEADING_MARKER = /(^|\s)(#+)(?=\s|$)/g;
