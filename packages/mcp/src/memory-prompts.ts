import type { Engram } from "@engram/core";
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { userOf } from "./tool-result.js";
import { idString } from "./tool-schemas.js";
import type { UserScope } from "./user-scope.js";

/** Suggestions for a user id stop here: completion is for typing, not for listing a shared server. */
const MAX_SUGGESTIONS = 20;

/**
 * The users a caller may see offered: a scoped token's, else the default user only, as the resource
 * listings show. Other users are not suggested, so completion does not reveal who else has memory.
 */
export function ownUsers(scope: UserScope): readonly string[] {
  return scope.allowedUsers ?? (scope.defaultUserId === undefined ? [] : [scope.defaultUserId]);
}

/** Completes a user id from the caller's own users. */
export function completeUserId(scope: UserScope): (value: string | undefined) => string[] {
  return (value) =>
    ownUsers(scope)
      .filter((u) => u.startsWith((value ?? "").trim()))
      .slice(0, MAX_SUGGESTIONS);
}

/**
 * Prompt `memory_context`: the user's message preceded by what is remembered about it, for clients that
 * offer prompts (slash commands) rather than letting the model call retrieve_memory itself.
 */
export function registerMemoryPrompts(server: McpServer, engram: Engram, scope: UserScope): void {
  server.registerPrompt(
    "memory_context",
    {
      title: "Answer with memory",
      description:
        "The user's message with the memory context for it (profile, relevant facts, earlier turns with " +
        "dates, recent turns) placed before it, marked as data about the user.",
      argsSchema: {
        message: z
          .string({ error: "expected message as a string" })
          .trim()
          .min(1, "message must not be empty")
          .describe("The user's message to answer."),
        user_id: completable(
          idString("user_id")
            .optional()
            .describe("Whose memory to use. Optional when the server was started with a default user."),
          completeUserId(scope),
        ),
      },
    },
    async (args): Promise<GetPromptResult> => {
      const userId = userOf(args, scope);
      const r = await engram.retrieve({ userId, query: args.message });
      const context = r.text || `(nothing is remembered yet about this for user ${userId})`;
      return {
        description: `Memory context for user ${userId}: ${r.context.tokens} tokens`,
        messages: [{ role: "user", content: { type: "text", text: `${context}\n\n${args.message}` } }],
      };
    },
  );
}
