import type { CliIo } from "../cli-io.js";
import type { CommandOutput } from "../cli-output.js";

export interface CommandContext {
  readonly io: CliIo;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** One `engram <name>` command. */
export interface Command {
  readonly name: string;
  /** Arguments after the name, e.g. `--user U QUERY [--k N]`. */
  readonly usage: string;
  readonly summary: string;
  /** Extra lines for `engram help <name>`. */
  readonly details?: readonly string[];
  run(args: readonly string[], ctx: CommandContext): Promise<CommandOutput>;
}
