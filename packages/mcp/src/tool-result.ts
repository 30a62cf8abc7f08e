import { EngramError, ValidationError } from "@engram/core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { assertUserAllowed, ForbiddenError, type UserScope } from "./user-scope.js";

/** A successful tool result: `text` for the model to read, `data` for clients that use structured content. */
export function toolResult(data: Record<string, unknown>, text?: string): CallToolResult {
  return {
    content: [{ type: "text", text: text ?? JSON.stringify(data, null, 2) }],
    structuredContent: data,
  };
}

/** A tool error an agent can act on: the engine's code and message (which says what to pass instead). */
export function toolError(error: unknown): CallToolResult {
  const text =
    EngramError.isInstance(error) || error instanceof ForbiddenError
      ? `${error.code}: ${error.message}`
      : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  return { content: [{ type: "text", text }], isError: true };
}

/** Runs a tool body and turns engine errors into tool errors instead of protocol failures. */
export async function guarded(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return toolError(error);
  }
}

/**
 * Whose memory a call touches: the `user_id` argument, else the default user. Without either, or for a user
 * outside the caller's scope, the call fails before touching storage, so a shared server never guesses.
 */
export function userOf(args: { user_id?: string | undefined }, scope: UserScope): string {
  const userId = args.user_id ?? scope.defaultUserId;
  if (userId === undefined) {
    throw new ValidationError(
      "user_id: required, because this server has no default user; pass user_id, or start the server " +
        "with --user U (or ENGRAM_USER) for a single-user setup",
      { details: { path: "user_id" } },
    );
  }
  assertUserAllowed(scope, userId);
  return userId;
}
