import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { DEFAULT_DB_PATH } from "@engram/core/sqlite";
import { modelFromEnv } from "./model-from-env.js";
import { runCompanion } from "./run-companion.js";

const USAGE = `Usage: pnpm companion [--db PATH] [--user U] [--no-embed] [--script FILE]

A terminal companion that remembers you across runs.
  --db PATH      memory store (default ${DEFAULT_DB_PATH}, or $ENGRAM_DB)
  --user U       whose memory (default $ENGRAM_USER, or "me")
  --no-embed     full-text recall only; skips loading the offline embedding model
  --script FILE  read your lines from FILE instead of the terminal (one message or command per line)
Model: OPENAI_API_KEY (OpenAI), or OPENAI_BASE_URL + ENGRAM_MODEL (any OpenAI-compatible server).`;

export interface CompanionIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: { write(chunk: string): unknown };
  readonly stderr: { write(chunk: string): unknown };
}

/**
 * The terminal companion: flags, the model from the environment, then the conversation. Returns the exit
 * code; the process streams by default, tests pass their own.
 */
export async function companionMain(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: CompanionIo = process,
): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      db: { type: "string" },
      user: { type: "string" },
      "no-embed": { type: "boolean" },
      script: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const choice = modelFromEnv(env);
  if (!choice.ok) {
    io.stderr.write(`${choice.message}\n`);
    return 1;
  }
  const script = values.script === undefined ? undefined : readFileSync(values.script, "utf8").split(/\r?\n/);
  const terminal = script ? undefined : createInterface({ input: io.stdin, output: process.stdout });
  terminal?.setPrompt("you> ");
  io.stderr.write(`model: ${choice.description}\n`);
  try {
    return await runCompanion({
      model: choice.model,
      path: values.db ?? (env.ENGRAM_DB || DEFAULT_DB_PATH),
      noEmbed: values["no-embed"] === true || env.ENGRAM_EMBEDDER === "none",
      userId: values.user ?? (env.ENGRAM_USER || "me"),
      input: script ?? (terminal as AsyncIterable<string>),
      output: io.stdout,
      echo: script !== undefined,
      ...(terminal ? { onIdle: () => terminal.prompt() } : {}),
    });
  } finally {
    terminal?.close();
  }
}
