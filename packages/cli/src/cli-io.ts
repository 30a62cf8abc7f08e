import { terminalText } from "./cli-output.js";

/** Where the CLI writes. The process streams by default; tests pass their own to run it in-process. */
export interface CliStream {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
  /**
   * Under a terminalStream, the stream it writes to: for the control sequences the CLI draws itself (the
   * progress bar's line clearing), which would otherwise be shown escaped.
   */
  readonly raw?: CliStream;
}

export interface CliIo {
  readonly stdout: CliStream;
  readonly stderr: CliStream;
  /** Environment read for ENGRAM_DB, ENGRAM_EMBEDDER and ENGRAM_DEBUG. Default: process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A stream that passes everything written to it through terminalText: commands write through these. */
export function terminalStream(stream: CliStream): CliStream {
  return {
    write: (chunk: string) => stream.write(terminalText(chunk)),
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.columns;
    },
    raw: stream,
  };
}

/** The same io with both streams made terminal-safe (terminalStream). */
export function terminalIo(io: CliIo): CliIo {
  return { ...io, stdout: terminalStream(io.stdout), stderr: terminalStream(io.stderr) };
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
