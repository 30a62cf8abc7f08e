import type { CliIo } from "../cli-io.js";
import type { CommandOutput } from "../cli-output.js";

export interface CommandContext {
  readonly io: CliIo;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborted by SIGINT/SIGTERM while an interruptible command runs from the `engram` binary. */
  readonly signal?: AbortSignal;
}

/** One `engram <name>` command. */
export interface Command {
  readonly name: string;
  /** Arguments after the name, e.g. `--user U QUERY [--k N]`. */
  readonly usage: string;
  readonly summary: string;
  /** Extra lines for `engram help <name>`. */
  readonly details?: readonly string[];
  /**
   * Stops cleanly on SIGINT/SIGTERM (rolling back what it had not committed) instead of dying at once:
   * for long commands that write.
   */
  readonly interruptible?: boolean;
  run(args: readonly string[], ctx: CommandContext): Promise<CommandOutput>;
}
