/** The command line itself is wrong: an unknown command or flag, a missing or malformed argument. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** The input the command was pointed at is wrong: a missing file, a bad JSONL line, an unknown user. */
export class InputError extends Error {
  override readonly name = "InputError";
}

/** A failure after some steps of a file were stored: the cause, and how far the file got. */
export class PartlyStoredError extends Error {
  override readonly name = "PartlyStoredError";

  constructor(
    override readonly cause: unknown,
    readonly stored: string,
  ) {
    super(`${cause instanceof Error ? cause.message : String(cause)} (${stored})`);
  }
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
