/** What a command prints: one JSON document (with --json), or lines for people. */
export type CommandOutput = { readonly json: unknown } | { readonly text: string };

export function respond(asJson: boolean | undefined, json: unknown, text: () => string): CommandOutput {
  return asJson ? { json } : { text: text() };
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
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}

/** `key  value` lines with the keys aligned. */
export function formatFields(fields: readonly (readonly [string, string])[]): string {
  const width = Math.max(...fields.map(([k]) => k.length));
  return fields.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join("\n");
}
