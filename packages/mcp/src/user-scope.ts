import type { TokenAccess } from "./token-grants.js";

/** Whose memory one connection may use. */
export interface UserScope {
  /** The user for calls that name none. */
  readonly defaultUserId: string | undefined;
  /** The only users calls may name; undefined for every user (stdio, admin tokens). */
  readonly allowedUsers: readonly string[] | undefined;
}

/**
 * A call for a user outside the caller's scope. Not an EngramError: the engine's error codes are a closed
 * set about memory, and this is about the caller. HTTP answers it with 403, a tool result with FORBIDDEN.
 */
export class ForbiddenError extends Error {
  readonly code = "FORBIDDEN";
  readonly userId: string;

  constructor(userId: string, allowed: readonly string[]) {
    const list = allowed.map((u) => JSON.stringify(u)).join(", ");
    super(`this caller may not use user ${JSON.stringify(userId)}; it may use ${list} only`);
    this.name = "ForbiddenError";
    this.userId = userId;
  }
}

/** Throws ForbiddenError unless the scope admits `userId`. */
export function assertUserAllowed(scope: UserScope, userId: string): void {
  if (scope.allowedUsers !== undefined && !scope.allowedUsers.includes(userId)) {
    throw new ForbiddenError(userId, scope.allowedUsers);
  }
}

/**
 * The scope of a request carrying `access`. A token for exactly one user makes that user the default, since
 * the server's default user (if another) would be refused anyway.
 */
export function scopeOf(access: TokenAccess, serverDefaultUserId: string | undefined): UserScope {
  const users = access.users;
  if (users === undefined) return { defaultUserId: serverDefaultUserId, allowedUsers: undefined };
  return { defaultUserId: users.length === 1 ? users[0] : serverDefaultUserId, allowedUsers: users };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

// The resource templates' user segment, read from the URI as the SDK normalises it (new URL), so a path like
// engram://users/alice/../bob/profile is judged as bob, the user the SDK would hand to the resource.
const RESOURCE_USER = /^engram:\/\/users\/([^/]+)\//;

function resourceUser(uri: unknown): string | undefined {
  if (typeof uri !== "string" || !URL.canParse(uri)) return undefined;
  const raw = RESOURCE_USER.exec(new URL(uri).href)?.[1];
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw).trim();
  } catch {
    return undefined; // the resource handler rejects a malformed escape itself
  }
}

/** The user one JSON-RPC message would touch, resolved as the tools and resources resolve it. */
function targetUser(message: unknown, defaultUserId: string | undefined): string | undefined {
  if (!isRecord(message) || !isRecord(message.params)) return undefined;
  // A tool's and a prompt's arguments name the user alike (prompts: memory_context).
  if (message.method === "tools/call" || message.method === "prompts/get") {
    const args = isRecord(message.params.arguments) ? message.params.arguments : {};
    const raw = args.user_id;
    // The schemas trim ids; a non-string id fails validation before any tool or prompt runs.
    if (typeof raw === "string") return raw.trim();
    return raw === undefined ? defaultUserId : undefined;
  }
  if (message.method === "resources/read") return resourceUser(message.params.uri);
  return undefined;
}

/**
 * The first refusal for a JSON-RPC body (one message or a batch), found before dispatch so HTTP can answer
 * 403. The tool and resource handlers check again, so a message this misreads is still refused.
 */
export function forbiddenTarget(body: unknown, scope: UserScope): ForbiddenError | undefined {
  if (scope.allowedUsers === undefined) return undefined;
  for (const message of Array.isArray(body) ? body : [body]) {
    const userId = targetUser(message, scope.defaultUserId);
    if (userId !== undefined && !scope.allowedUsers.includes(userId)) {
      return new ForbiddenError(userId, scope.allowedUsers);
    }
  }
  return undefined;
}
