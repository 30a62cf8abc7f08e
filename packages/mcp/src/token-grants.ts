import { createHash, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { ValidationError } from "@engram/core";
import { z } from "zod";
import { BearerTokenError, type BearerTokenProblem, tokenProblem } from "./bearer-token.js";
import { idString } from "./tool-schemas.js";

const GRANTS_SHAPE = '[{"token": "...", "users": ["alice"]}, {"token": "...", "admin": true}]';
const FILE_SHAPE = `{"tokens": ${GRANTS_SHAPE}}`;

/** One bearer token and what it may touch: every user (`admin: true`) or the listed `users` only. */
export interface TokenGrant {
  readonly token: string;
  /** A label for whoever maintains the file (whose device, which app); not used to authenticate. */
  readonly name?: string | undefined;
  readonly users?: readonly string[] | undefined;
  readonly admin?: boolean | undefined;
}

/** A token file that cannot be read or does not match the format; `details.path` names the entry at fault. */
export class TokenFileError extends ValidationError {
  constructor(file: string, message: string, path?: string) {
    super(`token file ${file}: ${message}`, { details: { file, ...(path ? { path } : {}) } });
    this.name = "TokenFileError";
  }
}

/** A message for a value that is not an object; other issues (an unknown key) keep zod's own message. */
const objectError = (message: string) => (issue: { code: string }) =>
  issue.code === "invalid_type" ? message : undefined;

// Messages never quote the token: a bad file's error ends up in logs.
const tokenText = z.string({ error: "expected token as a string" }).superRefine((token, ctx) => {
  const found = tokenProblem(token);
  if (found)
    ctx.addIssue({ code: "custom", message: `token ${found.message}`, params: { problem: found.problem } });
});

const grantSchema = z
  .strictObject(
    {
      token: tokenText,
      name: z
        .string({ error: "expected name as a string" })
        .trim()
        .min(1, "name must not be empty")
        .max(100, "name must be at most 100 characters")
        .optional(),
      users: z
        .array(idString("each user"), { error: "expected users as an array of user ids" })
        .min(1, 'users must name at least one user, e.g. ["alice"]')
        .optional(),
      admin: z.boolean({ error: "expected admin as true or false" }).optional(),
    },
    { error: objectError("expected each token as an object") },
  )
  .superRefine((grant, ctx) => {
    if (grant.admin === true && grant.users !== undefined) {
      ctx.addIssue({ code: "custom", path: ["admin"], message: "give admin: true or users, not both" });
    } else if (grant.admin !== true && grant.users === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["users"],
        message: 'needs users: ["alice", ...] or admin: true',
      });
    }
  });

const grantListSchema = z
  .array(grantSchema, { error: "expected tokens as an array" })
  .min(1, "tokens must list at least one token")
  .superRefine((grants, ctx) => {
    const seen = new Set<string>();
    grants.forEach((grant, i) => {
      if (seen.has(grant.token)) {
        ctx.addIssue({ code: "custom", path: [i, "token"], message: "the same token is listed twice" });
      }
      seen.add(grant.token);
    });
  });

const tokenFileSchema = z.strictObject(
  { tokens: grantListSchema },
  { error: objectError("expected a JSON object with a tokens array") },
);

function pathOf(keys: readonly PropertyKey[]): string {
  return keys.reduce<string>(
    (s, k) => (typeof k === "number" ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)),
    "",
  );
}

interface Issue {
  readonly path: string;
  readonly message: string;
  /** Set when the issue is the token itself (its syntax or strength), not the file's shape. */
  readonly problem: BearerTokenProblem | undefined;
}

function firstIssue(error: z.ZodError, prefix: readonly PropertyKey[]): Issue {
  const issue = error.issues[0];
  const params = issue?.code === "custom" ? (issue.params as { problem?: BearerTokenProblem }) : undefined;
  return {
    path: pathOf([...prefix, ...(issue?.path ?? [])]),
    message: issue?.message ?? "is invalid",
    problem: params?.problem,
  };
}

function normalized(grants: z.infer<typeof grantListSchema>): TokenGrant[] {
  return grants.map((g) => ({
    token: g.token,
    ...(g.name === undefined ? {} : { name: g.name }),
    ...(g.admin === true ? { admin: true } : { users: [...new Set(g.users)] }),
  }));
}

/** Checks grants given in code (the `tokens` option); a ValidationError names the entry, e.g. `tokens[1].users`. */
export function parseTokenGrants(value: unknown): TokenGrant[] {
  const parsed = grantListSchema.safeParse(value);
  if (parsed.success) return normalized(parsed.data);
  const { path, message, problem } = firstIssue(parsed.error, ["tokens"]);
  if (problem) throw new BearerTokenError(`${path}: ${message}`, { path, problem });
  throw new ValidationError(`${path}: ${message}; expected ${GRANTS_SHAPE}`, {
    details: { path },
  });
}

/** Reads and checks a JSON token file, `{"tokens": [...]}`; any problem is a {@link TokenFileError}. */
export function loadTokenFile(file: string): TokenGrant[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new TokenFileError(file, `cannot be read (${code ?? "error"}); pass the path of a JSON token file`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text around the fault, which may be a token: report no excerpt.
    throw new TokenFileError(file, `is not valid JSON; expected ${FILE_SHAPE}`);
  }
  const parsed = tokenFileSchema.safeParse(json);
  if (parsed.success) return normalized(parsed.data.tokens);
  const { path, message, problem } = firstIssue(parsed.error, []);
  // A weak or malformed token is not a format mistake: the hint to generate one beats the file's shape.
  const shape = problem ? "" : `; expected ${FILE_SHAPE}`;
  throw new TokenFileError(file, `${path ? `${path}: ` : ""}${message}${shape}`, path);
}

/** What a request's bearer token may touch: `users` undefined means every user (an admin token). */
export interface TokenAccess {
  readonly users: readonly string[] | undefined;
}

const digest = (token: string) => createHash("sha256").update(token, "utf8").digest();

/**
 * Matches `Authorization: Bearer <token>` against the grants. Tokens are compared as SHA-256 digests with
 * timingSafeEqual, and every grant is compared, so timing reveals neither a token's length nor which matched.
 */
export function bearerMatcher(
  grants: readonly TokenGrant[],
): (authorization: string | undefined) => TokenAccess | undefined {
  const entries = grants.map((g) => ({
    digest: digest(g.token),
    // A grant without users that is not admin touches nobody: fail closed, never open.
    access: { users: g.admin === true ? undefined : (g.users ?? []) } satisfies TokenAccess,
  }));
  return (authorization) => {
    const given = digest(/^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1] ?? "");
    let found: TokenAccess | undefined;
    for (const entry of entries) {
      if (timingSafeEqual(given, entry.digest)) found = entry.access;
    }
    return found;
  };
}
