import { UsageError } from "../cli-error.js";
import { respond } from "../cli-output.js";
import { parseCommandArgs } from "../command-args.js";
import type { Command, CommandContext } from "./command.js";

const COMMON_FLAGS = [
  "Every command accepts (before or after the command name; -h and --help after it):",
  "  --db PATH     the store (default .engram/engram.db, or $ENGRAM_DB)",
  "  --qdrant-url URL  a Qdrant server as the store instead (or $QDRANT_URL; key in $QDRANT_API_KEY)",
  "  --json        print exactly one JSON document on stdout",
  "  --no-embed    full-text only, no embedding model (or ENGRAM_EMBEDDER=none)",
  "  --embedder SPEC  the embedding model: offline (default), none, openai:MODEL, or onnx:DIR (a local",
  "                ONNX model folder; or $ENGRAM_EMBEDDER); the store records it and refuses another (see reembed)",
  "  --embedder-url URL  the OpenAI-compatible API of openai:MODEL (OpenAI, Ollama, vLLM, LM Studio;",
  "                or $ENGRAM_EMBEDDER_URL; key in $OPENAI_API_KEY)",
  "  --readonly    (reading commands and serve) open the store read-only: reads work, writes fail;",
  "                automatic for a file you cannot write",
  "  -h, --help    help for the command",
];

/** `engram help`: every command with its usage. */
export function overviewText(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    "engram: long-term memory for AI agents, from the command line",
    "",
    "Usage: engram <command> [flags]",
    "",
    ...commands.map((c) =>
      `  ${c.name.padEnd(width)}  ${c.usage}`.trimEnd().concat(`\n  ${" ".repeat(width)}  ${c.summary}`),
    ),
    "",
    ...COMMON_FLAGS,
    "",
    "Run engram help <command> for details. Exit codes: 0 ok, 1 bad input or failure, 2 bad usage.",
  ].join("\n");
}

/** `engram help <command>` and `engram <command> --help`. */
export function commandHelpText(command: Command): string {
  return [
    `Usage: engram ${command.name} ${command.usage}`.trimEnd(),
    "",
    command.summary,
    ...(command.details?.length ? ["", ...command.details] : []),
    "",
    ...COMMON_FLAGS,
  ].join("\n");
}

/** The help command; it takes the command list lazily because it is part of that list. */
export function createHelpCommand(commands: () => readonly Command[]): Command {
  return {
    name: "help",
    usage: "[COMMAND]",
    summary: "this overview, or the details of one command",
    details: ['--json prints {"commands": [{"name", "usage", "summary"}]}.'],
    async run(args: readonly string[], _ctx: CommandContext) {
      const { values, positionals } = parseCommandArgs(args, {}, { names: ["COMMAND"], min: 0 });
      const list = commands();
      const name = positionals[0];
      const command = name === undefined ? undefined : list.find((c) => c.name === name);
      if (name !== undefined && !command) {
        throw new UsageError(`unknown command ${JSON.stringify(name)}; run engram help for the list`);
      }
      const json = {
        commands: (command ? [command] : list).map(({ name, usage, summary }) => ({ name, usage, summary })),
      };
      return respond(values.json, json, () => (command ? commandHelpText(command) : overviewText(list)));
    },
  };
}
