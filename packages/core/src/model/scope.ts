import { z } from "zod";
import { ScopeError } from "../errors/index.js";

/**
 * Skills shared with every user of an agent live in a storage tenant of their own under this prefix, so
 * no id a caller passes may start with it: a user named so could otherwise write into an agent's tenant.
 */
export const AGENT_TENANT_PREFIX = "~agent:";

const idString = z
  .string({ error: "expected a non-empty string id" })
  .trim()
  .min(1, "must not be empty")
  .max(256, "must be at most 256 characters")
  .refine((id) => !id.startsWith(AGENT_TENANT_PREFIX), {
    message: `ids starting with "${AGENT_TENANT_PREFIX}" are reserved for an agent's shared skills; pass agentId for those`,
  });

/** A cube: an isolated memory space named by a namespace tuple, e.g. ["user", "u1"] or ["project", "p7"]. */
export const cubeSchema = z
  .array(z.string().min(1, "cube parts must be non-empty strings").max(256))
  .min(1, "a cube needs at least one namespace part")
  .max(16, "a cube has at most 16 parts");
export type Cube = readonly string[];

export const scopeSchema = z.object({
  userId: idString,
  agentId: idString.optional(),
  sessionId: idString.optional(),
});

/** Whose memory a call reads or writes. `userId` is required on every call; the storage layer enforces it. */
export interface Scope {
  readonly userId: string;
  readonly agentId?: string;
  readonly sessionId?: string;
}

export { idString };

/** The default cube of a user. */
export function userCube(userId: string): Cube {
  return ["user", userId];
}

/** A stable string key for a cube, used for storage and equality. */
export function cubeKey(cube: Cube): string {
  return JSON.stringify(cube);
}

export function parseCubeKey(key: string): string[] {
  return JSON.parse(key) as string[];
}

/** Refuses a storage call that does not say whose memory it touches. */
export function assertScope(
  scope: { userId?: unknown } | undefined,
  operation: string,
): asserts scope is Scope {
  if (!scope || typeof scope.userId !== "string" || scope.userId.trim() === "") {
    throw new ScopeError(
      `${operation}: refused an unscoped call; pass a scope with a non-empty userId, e.g. { userId: "u1" }`,
    );
  }
}
