import { type Scope, ScopeError, ValidationError } from "@engram/core";
import { idString, parseInput } from "@engram/core/integration";
import type { RunnableConfig } from "@langchain/core/runnables";
import { z } from "zod";

export const ownerOptionsSchema = z.object({
  /** The `configurable` key that names the user owning a thread. Default `user_id`. */
  userIdKey: z.string().min(1, "userIdKey must not be empty").default("user_id"),
  /** Owner of threads whose config names no user. Default: none, such calls are refused. */
  defaultUserId: idString.optional(),
});
export type OwnerOptions = z.output<typeof ownerOptionsSchema>;

/**
 * The Engram user who owns the thread a config points at: `configurable[userIdKey]`, else the default
 * owner. Ownership decides the scope every row of the thread is stored under, so `forget({ userId })`
 * erases the user's threads with the rest of their memory.
 */
export function threadOwner(config: RunnableConfig, options: OwnerOptions, operation: string): Scope {
  const given = config.configurable?.[options.userIdKey];
  if (given === undefined || given === null) {
    if (options.defaultUserId !== undefined) return { userId: options.defaultUserId };
    throw new ScopeError(
      `EngramCheckpointer.${operation}: the config names no thread owner; pass configurable.${options.userIdKey} ` +
        `(e.g. { configurable: { thread_id: "t1", ${options.userIdKey}: "u1" } }) or construct the ` +
        "checkpointer with { defaultUserId }",
    );
  }
  const userId = parseInput(idString, typeof given === "number" ? String(given) : given, operation);
  return { userId };
}

/** The thread id of a config, as a string; undefined when the config has none. */
export function threadIdOf(config: RunnableConfig, operation: string): string | undefined {
  const value = config.configurable?.thread_id;
  if (value === undefined || value === null) return undefined;
  if ((typeof value !== "string" && typeof value !== "number") || String(value) === "") {
    throw new ValidationError(
      `EngramCheckpointer.${operation}: configurable.thread_id must be a non-empty string, e.g. "thread-1"`,
    );
  }
  return String(value);
}

/** Like threadIdOf, for calls that cannot run without a thread. */
export function requireThreadId(config: RunnableConfig, operation: string): string {
  const threadId = threadIdOf(config, operation);
  if (threadId === undefined) {
    throw new ValidationError(
      `EngramCheckpointer.${operation}: the config is missing configurable.thread_id; pass ` +
        '{ configurable: { thread_id: "thread-1" } } so the checkpointer knows which thread to persist',
    );
  }
  return threadId;
}
