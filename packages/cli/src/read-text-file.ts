import { readFile } from "node:fs/promises";
import { InputError } from "./cli-error.js";

const REASONS: Record<string, string> = {
  ENOENT: "no such file",
  EISDIR: "it is a directory",
  EACCES: "permission denied",
};

// Fatal: a byte that is not UTF-8 is refused rather than read as U+FFFD. The BOM is kept: only at the start
// of a file is it no part of the text.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * UTF-16 by its start: a byte-order mark, or one NUL and one other byte, as UTF-16 writes the ASCII
 * character every JSON or JSONL file starts with (`{`, `[`, white space).
 */
export function looksUtf16(start: Uint8Array): boolean {
  const [a, b] = start;
  if (a === undefined || b === undefined) return false;
  if ((a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff)) return true;
  return (a === 0) !== (b === 0);
}

export function utf16Error(path: string): InputError {
  return new InputError(`${path}: the file is UTF-16; convert it to UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)`);
}

/** Where the first byte sequence that is not UTF-8 starts, as TextDecoder reads it; -1 when there is none. */
export function invalidUtf8At(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    // Continuation bytes allowed after the lead: overlong forms, surrogates and code points above
    // U+10FFFF are excluded by the ranges of the second byte (the Unicode table of well-formed UTF-8).
    let more: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) more = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      more = 2;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      more = 3;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k <= more; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < low || next > high) return i;
      low = 0x80;
      high = 0xbf;
    }
    i += more + 1;
  }
  return -1;
}

/**
 * Decodes bytes of the named file that start at `line` and file offset `offset`: bytes that are not UTF-8
 * are an InputError naming the file, the line and the byte offset of the first bad byte in the file.
 */
export function decodeUtf8(bytes: Uint8Array, path: string, line = 1, offset = 0): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    const at = Math.max(0, invalidUtf8At(bytes));
    const lineOfBad = line + bytes.subarray(0, at).filter((b) => b === 0x0a).length;
    const value = (bytes[at] as number).toString(16).padStart(2, "0");
    throw new InputError(
      `${path}: not valid UTF-8 at line ${lineOfBad}, byte offset ${offset + at} (0x${value}); ` +
        "save the file as UTF-8",
    );
  }
}

/**
 * Reads a UTF-8 file the user named; a failure is an InputError that names the file and why (it cannot be
 * read, it is UTF-16, or a byte is not UTF-8).
 */
export async function readTextFile(path: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw fileError(path, error);
  }
  if (looksUtf16(bytes)) throw utf16Error(path);
  const text = decodeUtf8(bytes, path);
  // A UTF-8 byte-order mark (Windows editors write one) is no part of the content.
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}

/** An InputError naming the file and why it cannot be read (no such file, a directory, no permission). */
export function fileError(path: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException).code ?? "";
  return new InputError(`cannot read ${path}: ${REASONS[code] ?? (error as Error).message}`);
}

/** Parses a whole file as one JSON document, naming the file when it is not JSON. */
export function parseJsonFile(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputError(`${path} is not valid JSON (${(error as Error).message})`);
  }
}
