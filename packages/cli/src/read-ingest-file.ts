import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { MAX_MESSAGE_BYTES } from "@engram/core";
import { type ChatExportFormat, parseChatExport } from "./chat-exports.js";
import { InputError } from "./cli-error.js";
import { isLocomoData, type LocomoConversation, parseLocomo } from "./locomo/load-locomo.js";
import { type JsonlLine, parseJsonlLine } from "./read-jsonl.js";
import {
  decodeUtf8,
  fileError,
  looksUtf16,
  parseJsonFile,
  readTextFile,
  utf16Error,
} from "./read-text-file.js";

/**
 * Longest JSONL line read: a message of MAX_MESSAGE_BYTES written as JSON can take up to six bytes per byte
 * (a control character becomes `\u001f`), plus room for the other fields. Longer lines cannot hold a
 * message the engine accepts, so they are refused as soon as they pass this, without reading them whole.
 */
export const MAX_JSONL_LINE_BYTES = 6 * MAX_MESSAGE_BYTES + 65_536;

export type IngestFile =
  | { readonly format: "jsonl" | ChatExportFormat; readonly lines: JsonlLine[] }
  | { readonly format: "locomo"; readonly conversations: LocomoConversation[] };

const NEWLINE = 0x0a;
const grouped = (n: number) => n.toLocaleString("en-US");

/** One line of text, with its 1-based number; a CRLF ending is dropped. */
export interface RawLine {
  readonly text: string;
  readonly line: number;
}

/** A line's bytes as text; `offset` is where the line starts in the file, for the error on bad UTF-8. */
function decode(parts: readonly Buffer[], line: number, offset: number, name: string): RawLine {
  const decoded = decodeUtf8(Buffer.concat(parts), name, line, offset);
  // Editors on Windows start UTF-8 files with a byte-order mark; it is no part of the first line's JSON.
  const text = line === 1 && decoded.startsWith("\uFEFF") ? decoded.slice(1) : decoded;
  return { text: text.endsWith("\r") ? text.slice(0, -1) : text, line };
}

/**
 * Splits a byte stream into lines, holding one line at a time. A line longer than `maxLineBytes` is an
 * InputError as soon as its length passes the limit: the rest of it is never read. A line that is not
 * UTF-8 is an InputError naming `name` (the file), the line and the offset of its first bad byte.
 */
export async function* readLines(
  source: AsyncIterable<Uint8Array>,
  maxLineBytes = MAX_JSONL_LINE_BYTES,
  name = "the input",
): AsyncGenerator<RawLine> {
  let parts: Buffer[] = [];
  let length = 0;
  let line = 1;
  // Where the current line starts in the stream.
  let lineStart = 0;
  let chunkStart = 0;
  for await (const chunk of source) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end >= 0; end = bytes.indexOf(NEWLINE, start)) {
      length += end - start;
      if (length > maxLineBytes) break;
      parts.push(bytes.subarray(start, end));
      yield decode(parts, line++, lineStart, name);
      parts = [];
      length = 0;
      start = end + 1;
      lineStart = chunkStart + start;
    }
    chunkStart += bytes.length;
    if (length <= maxLineBytes) {
      length += bytes.length - start;
      parts.push(bytes.subarray(start));
    }
    if (length > maxLineBytes) {
      throw new InputError(
        `line ${line} is longer than ${grouped(maxLineBytes)} bytes, more than any message may take ` +
          `(at most ${grouped(MAX_MESSAGE_BYTES)} bytes of UTF-8 text, MAX_MESSAGE_BYTES); split it into several messages`,
      );
    }
  }
  if (length > 0) yield decode(parts, line, lineStart, name);
}

/**
 * The file's first character that is not white space (or a byte-order mark), or null for a blank file.
 * A UTF-16 file is refused here, before its NUL bytes could reach a message.
 */
async function firstCharacter(path: string): Promise<string | null> {
  const handle = await open(path, "r").catch((error: unknown) => {
    throw fileError(path, error);
  });
  try {
    const buffer = Buffer.alloc(4096);
    for (let position = 0; ; ) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) return null;
      if (position === 0 && looksUtf16(buffer.subarray(0, bytesRead))) throw utf16Error(path);
      const found = buffer
        .subarray(0, bytesRead)
        .toString("latin1")
        .match(/[^\s\u00ef\u00bb\u00bf]/);
      if (found) return found[0];
      position += bytesRead;
    }
  } catch (error) {
    throw error instanceof InputError ? error : fileError(path, error);
  } finally {
    await handle.close();
  }
}

/** Reads and validates every line of a JSONL file, one line in memory at a time while reading. */
async function readJsonlFile(path: string): Promise<JsonlLine[]> {
  const lines: JsonlLine[] = [];
  const stream = createReadStream(path, { highWaterMark: 1 << 16 });
  try {
    for await (const { text, line } of readLines(stream, MAX_JSONL_LINE_BYTES, path)) {
      if (text.trim() !== "") lines.push(parseJsonlLine(text, line));
    }
  } catch (error) {
    throw error instanceof InputError ? error : fileError(path, error);
  } finally {
    stream.destroy();
  }
  if (lines.length === 0) {
    throw new InputError("the file holds no messages (expected one JSON object per line)");
  }
  return lines;
}

/**
 * Detects the format and validates the whole file; nothing is written until this succeeds. A LoCoMo file
 * is one JSON array, read whole; JSONL never starts with "[" and is read line by line.
 */
export async function readIngestFile(path: string): Promise<IngestFile> {
  if ((await firstCharacter(path)) !== "[") return { format: "jsonl", lines: await readJsonlFile(path) };
  const json = parseJsonFile(await readTextFile(path), path);
  if (!isLocomoData(json)) {
    throw new InputError(
      `${path} is a JSON array but not a LoCoMo file (elements need sample_id and conversation); ` +
        'for dialogue turns write JSONL: one {"role", "content", "at"?} object per line',
    );
  }
  return { format: "locomo", conversations: parseLocomo(json) };
}

/** A ChatGPT or Claude data export (`conversations.json`) as messages, each checked before any is stored. */
export async function readChatExport(path: string, format: ChatExportFormat): Promise<IngestFile> {
  const json = parseJsonFile(await readTextFile(path), path);
  return { format, lines: parseChatExport(json, format, path) };
}
