import { type Engram, ValidationError } from "@engram/core";
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { completeUserId, ownUsers } from "./memory-prompts.js";
import { idString } from "./tool-schemas.js";
import { assertUserAllowed, type UserScope } from "./user-scope.js";

type Variables = Record<string, string | string[]>;

/** The user named in a resource URI, validated like a tool's user_id and checked against the scope. */
function userFromUri(variables: Variables, scope: UserScope): string {
  const raw = variables.user_id;
  const parsed = idString("user_id").safeParse(
    decodeURIComponent(Array.isArray(raw) ? (raw[0] ?? "") : (raw ?? "")),
  );
  if (parsed.success) {
    assertUserAllowed(scope, parsed.data);
    return parsed.data;
  }
  throw new ValidationError(
    `user_id in the resource URI ${parsed.error.issues[0]?.message ?? "is invalid"}; ` +
      "read engram://users/{user_id}/profile or .../stats with a user id",
    { details: { path: "user_id" } },
  );
}

function json(uri: URL, data: unknown): ReadResourceResult {
  return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(data, null, 2) }] };
}

/**
 * Lists the caller's own users (a scoped token's, else the default user only): a server shared by many
 * users must not reveal who else has memory. Other resources in scope can still be read by their URI.
 */
function listFor(scope: UserScope, suffix: string, label: string) {
  return async () => ({
    resources: ownUsers(scope).map((userId) => ({
      uri: `engram://users/${encodeURIComponent(userId)}/${suffix}`,
      name: `${label} of ${userId}`,
      mimeType: "application/json",
    })),
  });
}

/** Resources: `engram://users/{user_id}/profile` and `engram://users/{user_id}/stats`. */
export function registerMemoryResources(server: McpServer, engram: Engram, scope: UserScope): void {
  server.registerResource(
    "user-profile",
    new ResourceTemplate("engram://users/{user_id}/profile", {
      list: listFor(scope, "profile", "Profile"),
      complete: { user_id: completeUserId(scope) },
    }),
    {
      title: "User profile",
      description: "The user's profile traits (key, value, confidence, since) as JSON.",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const userId = userFromUri(variables, scope);
      const profile = await engram.profile({ userId });
      return json(uri, { user_id: userId, profile });
    },
  );
  server.registerResource(
    "user-stats",
    new ResourceTemplate("engram://users/{user_id}/stats", {
      list: listFor(scope, "stats", "Memory stats"),
      complete: { user_id: completeUserId(scope) },
    }),
    {
      title: "User memory stats",
      description: "How much is stored for the user: memories by kind and tier, vectors, history, jobs.",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const userId = userFromUri(variables, scope);
      const { users: _all, ...stats } = await engram.stats({ userId });
      return json(uri, { user_id: userId, ...stats });
    },
  );
}
