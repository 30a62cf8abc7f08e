/** Where the CLI writes. The process streams by default; tests pass their own to run it in-process. */
export interface CliStream {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface CliIo {
  readonly stdout: CliStream;
  readonly stderr: CliStream;
  /** Environment read for ENGRAM_DB, ENGRAM_EMBEDDER and ENGRAM_DEBUG. Default: process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env };
}

export interface CapturedIo extends CliIo {
  /** Everything written to stdout so far. */
  stdoutText(): string;
  stderrText(): string;
}

/** An in-memory CliIo: runs the CLI inside another program and keeps what it printed. */
export function captureIo(
  options: { env?: Record<string, string | undefined>; isTTY?: boolean } = {},
): CapturedIo {
  const out: string[] = [];
  const err: string[] = [];
  const isTTY = options.isTTY ?? false;
  return {
    stdout: { write: (chunk: string) => out.push(chunk), isTTY },
    stderr: { write: (chunk: string) => err.push(chunk), isTTY },
    env: options.env ?? {},
    stdoutText: () => out.join(""),
    stderrText: () => err.join(""),
  };
}
