/** The command line itself is wrong: an unknown command or flag, a missing or malformed argument. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** The input the command was pointed at is wrong: a missing file, a bad JSONL line, an unknown user. */
export class InputError extends Error {
  override readonly name = "InputError";
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
