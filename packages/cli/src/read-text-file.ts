import { readFile } from "node:fs/promises";
import { InputError } from "./cli-error.js";

const REASONS: Record<string, string> = {
  ENOENT: "no such file",
  EISDIR: "it is a directory",
  EACCES: "permission denied",
};

/** Reads a UTF-8 file the user named; a failure is an InputError that names the file and why. */
export async function readTextFile(path: string): Promise<string> {
  try {
    const text = await readFile(path, "utf8");
    // A UTF-8 byte-order mark (Windows editors write one) is no part of the content.
    return text.startsWith("\uFEFF") ? text.slice(1) : text;
  } catch (error) {
    throw fileError(path, error);
  }
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
