import { type Engram, ValidationError } from "@engram/core";
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { idString } from "./tool-schemas.js";

type Variables = Record<string, string | string[]>;

/** The user named in a resource URI, validated like a tool's user_id. */
function userFromUri(variables: Variables): string {
  const raw = variables.user_id;
  const parsed = idString("user_id").safeParse(
    decodeURIComponent(Array.isArray(raw) ? (raw[0] ?? "") : (raw ?? "")),
  );
  if (parsed.success) return parsed.data;
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
 * Lists only the configured default user: a server shared by many users must not reveal who else has
 * memory. Any user's resource can still be read by its URI.
 */
function listFor(defaultUserId: string | undefined, suffix: string, label: string) {
  return async () => ({
    resources:
      defaultUserId === undefined
        ? []
        : [
            {
              uri: `engram://users/${encodeURIComponent(defaultUserId)}/${suffix}`,
              name: `${label} of ${defaultUserId}`,
              mimeType: "application/json",
            },
          ],
  });
}

/** Resources: `engram://users/{user_id}/profile` and `engram://users/{user_id}/stats`. */
export function registerMemoryResources(server: McpServer, engram: Engram, defaultUserId?: string): void {
  server.registerResource(
    "user-profile",
    new ResourceTemplate("engram://users/{user_id}/profile", {
      list: listFor(defaultUserId, "profile", "Profile"),
    }),
    {
      title: "User profile",
      description: "The user's profile traits (key, value, confidence, since) as JSON.",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const userId = userFromUri(variables);
      const profile = await engram.profile({ userId });
      return json(uri, { user_id: userId, profile });
    },
  );
  server.registerResource(
    "user-stats",
    new ResourceTemplate("engram://users/{user_id}/stats", {
      list: listFor(defaultUserId, "stats", "Memory stats"),
    }),
    {
      title: "User memory stats",
      description: "How much is stored for the user: memories by kind and tier, vectors, history, jobs.",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const userId = userFromUri(variables);
      const { users: _all, ...stats } = await engram.stats({ userId });
      return json(uri, { user_id: userId, ...stats });
    },
  );
}
