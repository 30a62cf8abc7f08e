import { EXIT_OK, EXIT_USAGE } from "./cli-error.js";
import { type CliIo, captureIo, processIo, terminalIo } from "./cli-io.js";
import { renderOutput } from "./cli-output.js";
import { splitCommandLine } from "./command-args.js";
import { COMMANDS, commandHelpText, findCommand, overviewText } from "./commands/index.js";
import { withInterrupts } from "./interrupt.js";

export interface RunOptions {
  /** Turn SIGINT/SIGTERM into a clean stop for interruptible commands (the `engram` binary sets it). */
  readonly handleSignals?: boolean;
}

function wantsHelp(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

/**
 * Runs one `engram` command line (without the program name) and returns the exit code: 0 ok, 1 bad input
 * or failure, 2 bad usage, 130/143 interrupted by SIGINT/SIGTERM. Output goes to `given` (the process streams by default), so it can run in-process.
 */
export async function runCli(
  argv: readonly string[],
  given: CliIo = processIo(),
  options: RunOptions = {},
): Promise<number> {
  // Everything printed, by this function or a command, shows control characters escaped (terminalText).
  const io = terminalIo(given);
  const { name, args } = splitCommandLine(argv);
  if (name === undefined && args.length > 0 && !wantsHelp(args)) {
    io.stderr.write("engram: missing command; run engram help for the list\n");
    return EXIT_USAGE;
  }
  if (name === undefined || name === "--help" || name === "-h") {
    (name === undefined ? io.stderr : io.stdout).write(`${overviewText(COMMANDS)}\n`);
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const command = findCommand(name);
  if (!command) {
    const hint = name.startsWith("-")
      ? "only --db, --qdrant-url, --json, --no-embed, --embedder, --embedder-url and --readonly may come before the command, e.g. engram --db x.db search --user U QUERY"
      : "";
    io.stderr.write(
      `engram: unknown command ${JSON.stringify(name)}; ${hint || "run engram help for the list"}\n`,
    );
    return EXIT_USAGE;
  }
  if (wantsHelp(args)) {
    io.stdout.write(`${commandHelpText(command)}\n`);
    return EXIT_OK;
  }
  const env = io.env ?? process.env;
  try {
    const output =
      options.handleSignals && command.interruptible
        ? await withInterrupts((signal) => command.run(args, { io, env, signal }))
        : await command.run(args, { io, env });
    io.stdout.write(renderOutput(output));
    return EXIT_OK;
  } catch (error) {
    // Loaded on failure only: it knows the engine's errors, and help must not load the engine.
    const { describeError } = await import("./describe-error.js");
    const described = describeError(error);
    io.stderr.write(`engram ${name}: ${described.message.replace(/\s*\n\s*/g, " ")}\n`);
    if (described.unexpected && env.ENGRAM_DEBUG && error instanceof Error && error.stack) {
      io.stderr.write(`${error.stack}\n`);
    }
    return described.exitCode;
  }
}

export interface CapturedRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command line in-process and returns its exit code and everything it printed. */
export async function runCliCaptured(
  argv: readonly string[],
  options: { env?: Record<string, string | undefined>; isTTY?: boolean } = {},
): Promise<CapturedRun> {
  const io = captureIo(options);
  const code = await runCli(argv, io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}
