import { type EngramMiddleware, engramMiddleware } from "@engram/ai-sdk";
import { createEngram, type Engram } from "@engram/core";
import { type LanguageModel, type ModelMessage, streamText, wrapLanguageModel } from "ai";
import { COMMAND_HELP, runCommand } from "./companion-commands.js";
import { type CompanionMemory, companionMemory } from "./companion-memory.js";

export const COMPANION_INSTRUCTIONS =
  "You are a warm, curious companion having a long-running conversation with one person. Keep replies " +
  "short (one to three sentences). Use what you remember about them naturally, without reciting it; " +
  "if they correct you, accept the correction.";

/** Turns of this run kept verbatim in the prompt; older ones reach the model through memory. */
const SESSION_WINDOW = 20;

export interface CompanionWriter {
  write(chunk: string): unknown;
}

export interface CompanionOptions {
  /** A language model object (wrapped with Engram's middleware; a gateway model id string is not). */
  readonly model: Exclude<LanguageModel, string>;
  /** An open store (the caller closes it), or `path` to open one for this run. */
  readonly engram?: Engram;
  readonly path?: string;
  /** Without vectors, full-text recall only (no embedding model loads). Only with `path`. */
  readonly noEmbed?: boolean;
  readonly userId?: string;
  /** The user's lines: a file's lines in script mode, the terminal otherwise. */
  readonly input: AsyncIterable<string> | Iterable<string>;
  readonly output: CompanionWriter;
  /** Print each input line after "you> " (script mode, so the transcript reads like a chat). */
  readonly echo?: boolean;
  /** Called whenever the companion waits for the next line (e.g. to show a prompt). */
  readonly onIdle?: () => void;
  readonly instructions?: string;
}

interface Turn {
  readonly memory: CompanionMemory;
  /** The caller's model wrapped by Engram's middleware: it recalls before and remembers after each reply. */
  readonly model: LanguageModel;
  readonly middleware: EngramMiddleware;
  readonly instructions: string;
  readonly history: ModelMessage[];
  readonly output: CompanionWriter;
}

/**
 * One exchange: the middleware recalls the user's memory into the prompt, the reply streams, and the
 * middleware queues the turn to be remembered. False when the model call failed (nothing is stored).
 */
async function reply(turn: Turn, text: string): Promise<boolean> {
  const messages: ModelMessage[] = [...turn.history.slice(-SESSION_WINDOW), { role: "user", content: text }];
  let failure: unknown;
  const result = streamText({
    model: turn.model,
    instructions: turn.instructions,
    messages,
    onError: ({ error }) => {
      failure = error;
    },
  });
  turn.output.write("companion> ");
  let answer = "";
  for await (const delta of result.textStream) {
    answer += delta;
    turn.output.write(delta);
  }
  turn.output.write("\n");
  if (failure !== undefined) {
    const message = failure instanceof Error ? failure.message : String(failure);
    turn.output.write(`(the model call failed: ${message}; nothing was stored)\n`);
    return false;
  }
  turn.history.push({ role: "user", content: text }, { role: "assistant", content: answer });
  return true;
}

async function openStore(options: CompanionOptions): Promise<{ engram: Engram; owned: boolean }> {
  if (options.engram) return { engram: options.engram, owned: false };
  if (!options.path)
    throw new TypeError("runCompanion: pass engram (an open store) or path (a database file)");
  const engram = await createEngram({ path: options.path, ...(options.noEmbed ? { embedder: null } : {}) });
  return { engram, owned: true };
}

/**
 * The companion's conversation loop over `input` lines. Resolves with the exit code: 0, or 1 when a model
 * call failed. Used by the terminal entry point and, with a mock model, by tests.
 */
export async function runCompanion(options: CompanionOptions): Promise<number> {
  const { engram, owned } = await openStore(options);
  const userId = options.userId ?? "me";
  const middleware = engramMiddleware({ engram, userId, sessionId: "companion" });
  const turn: Turn = {
    memory: companionMemory(engram, userId, middleware),
    model: wrapLanguageModel({ model: options.model, middleware }),
    middleware,
    instructions: options.instructions ?? COMPANION_INSTRUCTIONS,
    history: [],
    output: options.output,
  };
  let failed = false;
  try {
    options.output.write(`Hi! I remember our past conversations. ${COMMAND_HELP}\n`);
    options.onIdle?.();
    for await (const raw of options.input) {
      const line = raw.trim();
      if (line) {
        if (options.echo) options.output.write(`you> ${line}\n`);
        if (line.startsWith("/")) {
          const outcome = await runCommand(line, turn.memory);
          options.output.write(`${outcome.reply}\n`);
          // Nothing of the user may linger in later prompts of this run either.
          if (outcome.forgot) turn.history.length = 0;
          if (outcome.quit) break;
        } else if (!(await reply(turn, line))) failed = true;
      }
      options.onIdle?.();
    }
  } finally {
    // Queued turns are written before the store closes: the next run remembers them.
    await middleware.close();
    if (owned) await engram.close();
  }
  return failed ? 1 : 0;
}
