/** What a command prints: one JSON document (with --json), or lines for people. */
export type CommandOutput = { readonly json: unknown } | { readonly text: string };

export function respond(asJson: boolean | undefined, json: unknown, text: () => string): CommandOutput {
  return asJson ? { json } : { text: text() };
}

// Characters a terminal acts on instead of showing: the C0 controls (ESC starts every escape sequence; BEL,
// backspace and a CR not ending a line rewrite what is shown), DEL, the C1 controls (U+009B alone is a CSI
// on some terminals), the line and paragraph separators, and the bidi controls that reorder a line.
// Newline and tab stay; CR before a newline is a Windows line end.
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]|\r(?!\n)/g;
// The same with newline, CR and tab: for a value that must stay on its one line.
const UNSAFE_IN_LINE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

const SHORT_ESCAPES: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `\u001b` for ESC, `\n` for a newline: the escape JSON itself would write. */
function escaped(char: string): string {
  return SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * Text as it may reach a terminal: every character the terminal would act on is shown as its escape
 * (`\u001b[2J`, `\u0007`, `\r`), so text from a store, a file or the command line can neither clear the
 * screen, set the title, move the cursor nor reorder a line. The escapes are JSON's own and JSON output
 * holds raw controls only inside strings, so a JSON document stays valid and means the same.
 */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, escaped);
}

/** Like terminalText, with newlines, CRs and tabs escaped too: for one value on one line (an id, a cell). */
export function oneLine(text: string): string {
  return text.replace(UNSAFE_IN_LINE, escaped);
}

/** The characters written to stdout for an output; JSON is always exactly one document. */
export function renderOutput(output: CommandOutput): string {
  if ("json" in output) return `${JSON.stringify(output.json, null, 2)}\n`;
  return output.text === "" || output.text.endsWith("\n") ? output.text : `${output.text}\n`;
}

/** One line of text, shortened with an ellipsis; newlines become spaces so a table row stays one row. */
export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

/** `2026-01-05 10:00` from an ISO time; `-` for none. */
export function shortTime(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 16).replace("T", " ") : "-";
}

/** A plain-text table: a header row, then rows, columns padded to their widest cell; the last is not padded. */
export function formatTable(headers: readonly string[], given: readonly (readonly string[])[]): string {
  // A cell holding a newline would start a row of its own.
  const rows = given.map((row) => row.map(oneLine));
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}

/**
 * `key  value` lines with the keys aligned. A value's further lines are indented to its column, so text
 * in a value cannot pose as another field.
 */
export function formatFields(fields: readonly (readonly [string, string])[]): string {
  const width = Math.max(...fields.map(([k]) => k.length));
  const indent = `\n${" ".repeat(width + 2)}`;
  return fields.map(([k, v]) => `${k.padEnd(width)}  ${v.replace(/\r?\n/g, indent)}`).join("\n");
}
