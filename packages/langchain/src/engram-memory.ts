import { type Engram, ValidationError } from "@engram/core";
import { idString, parseInput, type WriteBehindOptions } from "@engram/core/integration";
import {
  BaseMemory,
  type InputValues,
  type MemoryVariables,
  type OutputValues,
} from "@langchain/core/memory";
import { z } from "zod";
import { engramSchema } from "./engram-schema.js";
import { type OnError, TurnWriter, type WriteErrorInfo, warn } from "./turn-writer.js";

export interface EngramMemoryOptions {
  engram: Engram;
  userId: string;
  /** Stored with the turns; one conversation. */
  sessionId?: string;
  agentId?: string;
  /** The prompt variable that receives the memory block. Default `memory`. */
  memoryKey?: string;
  /** The chain input holding the user's message. Default: the only input. */
  inputKey?: string;
  /** The chain output holding the answer. Default: the only output. */
  outputKey?: string;
  /** Tokens of memory context. Default: the engine's (1,500). */
  budgetTokens?: number;
  /** Before recalling, wait up to this long for the previous turn's write. Default 500 ms. */
  waitForWritesMs?: number;
  /**
   * How long the write-back of a turn may hold the caller until the raw turn is committed; a slower write
   * goes on in the background with retries. Default 5,000 ms; 0 never waits (a turn can then be lost if the
   * process exits before it is written).
   */
  writeTimeoutMs?: number;
  writeBehind?: WriteBehindOptions;
  /** Told of every failed write-back try. Default: a one-line `console.warn`. */
  onError?: (error: unknown, info: WriteErrorInfo) => void;
}

const optionsSchema = z.object({
  engram: engramSchema,
  userId: idString,
  sessionId: idString.optional(),
  agentId: idString.optional(),
  memoryKey: z.string().min(1).default("memory"),
  inputKey: z.string().min(1).optional(),
  outputKey: z.string().min(1).optional(),
  budgetTokens: z.number().int().min(0).max(1_000_000).optional(),
  waitForWritesMs: z.number().int().min(0).max(60_000).default(500),
  writeTimeoutMs: z.number().int().min(0).max(600_000).default(5000),
  // Used as given (the write-behind queue and its error callback); checked for their shape here.
  writeBehind: z.custom<WriteBehindOptions>((v) => typeof v === "object" && v !== null).optional(),
  onError: z.custom<OnError>((v) => typeof v === "function", { message: "expected a function" }).optional(),
});

/** The named value, or the only one; several values and no key is a setup mistake worth failing on. */
function pick(values: Record<string, unknown>, key: string | undefined, option: string, ignore: string) {
  if (key !== undefined) return values[key];
  const keys = Object.keys(values).filter((k) => k !== ignore);
  if (keys.length === 1) return values[keys[0] as string];
  throw new ValidationError(
    `EngramMemory: the chain has ${keys.length} ${option === "inputKey" ? "inputs" : "outputs"} (${keys.join(", ")}); pass new EngramMemory({ ${option}: "..." }) to name the one to use`,
  );
}

const asText = (value: unknown): string =>
  typeof value === "string"
    ? value.trim()
    : typeof (value as { text?: unknown })?.text === "string"
      ? ((value as { text: string }).text as string).trim()
      : "";

/**
 * Memory for classic LangChain chains (`@langchain/classic`): `loadMemoryVariables` returns the user's
 * memory context for the input (fenced as data), `saveContext` writes the turn back behind the chain.
 */
export class EngramMemory extends BaseMemory {
  private readonly options: z.output<typeof optionsSchema>;
  private readonly writer: TurnWriter;

  /** @throws ValidationError (INVALID_INPUT) when userId is missing. */
  constructor(options: EngramMemoryOptions) {
    super();
    this.options = parseInput(optionsSchema, options, "EngramMemory");
    const onError: OnError = options.onError ?? warn;
    this.writer = new TurnWriter(
      this.options.engram,
      onError,
      options.writeBehind,
      this.options.waitForWritesMs,
      this.options.writeTimeoutMs,
    );
  }

  get memoryKeys(): string[] {
    return [this.options.memoryKey];
  }

  async loadMemoryVariables(values: InputValues): Promise<MemoryVariables> {
    const query = asText(pick(values, this.options.inputKey, "inputKey", this.options.memoryKey));
    if (query === "") return { [this.options.memoryKey]: "" };
    await this.writer.settle();
    const { engram, userId, budgetTokens } = this.options;
    const { text } = await engram.retrieve({
      userId,
      query,
      ...(budgetTokens === undefined ? {} : { budgetTokens }),
    });
    return { [this.options.memoryKey]: text };
  }

  /**
   * Writes the turn (input and answer) and resolves once it is committed (at most `writeTimeoutMs`; a
   * failed write is retried behind the chain). Never fails the chain.
   */
  async saveContext(inputValues: InputValues, outputValues: OutputValues): Promise<void> {
    const { userId, sessionId, agentId, inputKey, outputKey, memoryKey } = this.options;
    const user = asText(pick(inputValues, inputKey, "inputKey", memoryKey));
    const answer = asText(pick(outputValues, outputKey, "outputKey", memoryKey));
    if (user === "") return;
    await this.writer.write({
      userId,
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(agentId === undefined ? {} : { agentId }),
      messages: [
        { role: "user", content: user },
        ...(answer === "" ? [] : [{ role: "assistant" as const, content: answer }]),
      ],
    });
  }

  /** Resolves when every queued turn is written (or given up). */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  close(): Promise<void> {
    return this.writer.close();
  }
}
