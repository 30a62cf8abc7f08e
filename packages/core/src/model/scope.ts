import { z } from "zod";
import { ScopeError } from "../errors/index.js";

/**
 * Skills shared with every user of an agent live in a storage tenant of their own under this prefix, so
 * no id a caller passes may start with it: a user named so could otherwise write into an agent's tenant.
 */
export const AGENT_TENANT_PREFIX = "~agent:";

/**
 * Characters no id or cube part may hold: C0 controls, DEL, C1 controls, the line and paragraph
 * separators and the bidi controls. Ids are printed and listed one a line (the CLI, logs, the inspector),
 * where such a character would split one id into two lines or make one id look like another.
 */
const ID_CONTROL_CHARACTER =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;

function refuseControlCharacters(value: string, ctx: z.RefinementCtx): void {
  const found = ID_CONTROL_CHARACTER.exec(value);
  if (found) {
    const code = (found[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0");
    ctx.addIssue({
      code: "custom",
      message:
        `must not hold control characters, line separators or bidi controls (U+${code} at index ` +
        `${found.index})`,
    });
  }
}

/**
 * An id as stored before ids were checked for control characters. Only `forget` takes it, so a user
 * stored under such an id can still be erased.
 */
const storedIdString = z
  .string({ error: "expected a non-empty string id" })
  .trim()
  .min(1, "must not be empty")
  .max(256, "must be at most 256 characters")
  .refine((id) => !id.startsWith(AGENT_TENANT_PREFIX), {
    message: `ids starting with "${AGENT_TENANT_PREFIX}" are reserved for an agent's shared skills; pass agentId for those`,
  });

const idString = storedIdString.superRefine(refuseControlCharacters);

/** A cube: an isolated memory space named by a namespace tuple, e.g. ["user", "u1"] or ["project", "p7"]. */
export const cubeSchema = z
  .array(
    z.string().min(1, "cube parts must be non-empty strings").max(256).superRefine(refuseControlCharacters),
  )
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

export { idString, storedIdString };

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
