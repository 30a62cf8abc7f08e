/** Whose memory one connection may use. */
export interface UserScope {
  /** The user for calls that name none. */
  readonly defaultUserId: string | undefined;
  /** The only users calls may name; undefined for every user (stdio, admin tokens). */
  readonly allowedUsers: readonly string[] | undefined;
}

/**
 * A call for a user outside the caller's scope. Not an EngramError: the engine's error codes are a closed
 * set about memory, and this is about the caller. A tool result carries FORBIDDEN.
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
