import { EngramError, type EngramErrorCode } from "@engram/core";
import { EXIT_FAILURE, EXIT_USAGE, InputError, PartlyStoredError, UsageError } from "./cli-error.js";
import { InterruptedError } from "./interrupt.js";

export interface DescribedError {
  readonly message: string;
  readonly exitCode: number;
  /** A bug or an environment failure rather than bad input: worth a stack trace under ENGRAM_DEBUG. */
  readonly unexpected: boolean;
}

// Engine messages start with the API call that failed ("memories.get: ..."); the CLI names its command instead.
const API_PREFIX = /^[a-z][A-Za-z]*(?:\.[a-z][A-Za-z]*)?: /;

const ENGINE_HINTS: Partial<Record<EngramErrorCode, (message: string) => string>> = {
  STORAGE: (m) => `storage error: ${m}`,
  MODEL: (m) =>
    `${m}; pass --no-embed (or set ENGRAM_EMBEDDER=none) to use full-text search only, or another --embedder`,
  EMBEDDER_MISMATCH: (m) => `${m}; choose the embedder with --embedder SPEC (or ENGRAM_EMBEDDER)`,
  READ_ONLY: (m) => `${m} (drop --readonly, or check the file's and its directory's permissions)`,
};

/** Turns anything a command threw into one line for stderr and an exit code. */
export function describeError(error: unknown): DescribedError {
  if (error instanceof PartlyStoredError) {
    const cause = describeError(error.cause);
    return { ...cause, message: `${cause.message} (${error.stored})` };
  }
  if (error instanceof UsageError) return { message: error.message, exitCode: EXIT_USAGE, unexpected: false };
  if (error instanceof InterruptedError) {
    return { message: error.message, exitCode: error.exitCode, unexpected: false };
  }
  if (error instanceof InputError)
    return { message: error.message, exitCode: EXIT_FAILURE, unexpected: false };
  if (EngramError.isInstance(error)) {
    const message = error.message.replace(API_PREFIX, "");
    const hint = ENGINE_HINTS[error.code];
    return {
      message: hint ? hint(message) : message,
      exitCode: EXIT_FAILURE,
      unexpected: error.code === "STORAGE",
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { message: `unexpected error: ${message}`, exitCode: EXIT_FAILURE, unexpected: true };
}
