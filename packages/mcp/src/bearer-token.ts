import { randomBytes } from "node:crypto";
import { ValidationError } from "@engram/core";

/**
 * The rules a bearer token must meet before a server starts on it: the syntax of an `Authorization:
 * Bearer` credential, and enough estimated entropy that guessing it is hopeless. Messages never quote
 * the token: they end up in logs.
 */

/** The least estimated entropy a token must have, in bits (see {@link estimateTokenBits}). */
export const MIN_TOKEN_BITS = 128;
/** Longer tokens are refused: they could not travel in a request header anyway. */
export const MAX_TOKEN_LENGTH = 1024;
export const TOKEN_HINT =
  "generate one with: openssl rand -base64 32 " +
  "(or: node -e \"console.log(require('node:crypto').randomBytes(32).toString('base64url'))\")";

/** A new random token of 256 bits, base64url: what the server generates when it is given none. */
export function generateToken(): string {
  return randomBytes(32).toString("base64url");
}

export type BearerTokenProblem = "syntax" | "too_long" | "weak";

/** A bearer token the server refuses to start on; `details` name the option (`path`) and the `problem`. */
export class BearerTokenError extends ValidationError {
  readonly problem: BearerTokenProblem;
  constructor(message: string, options: { path: string; problem: BearerTokenProblem; bits?: number }) {
    super(message, { details: options });
    this.name = "BearerTokenError";
    this.problem = options.problem;
  }
}

// RFC 6750's b64token (RFC 9110's token68): the only characters a Bearer credential may hold.
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;
const TOKEN68_CHAR = /[A-Za-z0-9\-._~+/]/;

/** Names the first character that cannot appear in a Bearer credential, without quoting the token. */
function syntaxProblem(token: string): string | undefined {
  if (TOKEN68.test(token)) return undefined;
  const chars = [...token];
  if (/^\s|\s$/.test(token)) {
    return "starts or ends with whitespace (a space or line break copied along with it?)";
  }
  const at = chars.findIndex(
    (c, i) => !TOKEN68_CHAR.test(c) && !(c === "=" && chars.slice(i).every((d) => d === "=")),
  );
  const c = chars[at] ?? "";
  const what =
    c === "="
      ? '"=" other than at the end'
      : /\s/.test(c)
        ? "a space or other whitespace"
        : c < " " || c === "\x7f"
          ? "a control character"
          : c > "\x7f"
            ? "a non-ASCII character"
            : JSON.stringify(c);
  return `contains ${what} (character ${at + 1})`;
}

/** Runs are read case-insensitively along these: the alphabet, digits and keyboard rows. */
const SEQUENCES = ["abcdefghijklmnopqrstuvwxyz", "0123456789", "qwertyuiop", "asdfghjkl", "zxcvbnm"];
/** Words people put in made-up tokens; matched case-insensitively, with 0 1 3 4 5 7 read as o i e a s t. */
const COMMON_WORDS = [
  "password",
  "passwd",
  "passphrase",
  "secret",
  "token",
  "bearer",
  "admin",
  "root",
  "user",
  "login",
  "letmein",
  "welcome",
  "changeme",
  "default",
  "master",
  "test",
  "demo",
  "example",
  "engram",
  "memory",
  "server",
  "local",
  "dragon",
  "monkey",
  "iloveyou",
  "trustno",
  "hello",
];
const LEET: Record<string, string> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t" };

/** -1, 0 or +1 when b follows a in a sequence (or repeats it), else undefined. */
function step(a: string, b: string): number | undefined {
  if (a === b) return 0;
  for (const seq of SEQUENCES) {
    const i = seq.indexOf(a);
    if (i < 0) continue;
    if (seq[i + 1] === b) return 1;
    if (seq[i - 1] === b) return -1;
  }
  return undefined;
}

/** Size of the smallest usual alphabet the token is drawn from: digits, hex, or the classes it uses. */
function alphabetSize(body: string): number {
  if (/^[0-9]+$/.test(body)) return 10;
  if (/^[0-9a-f]+$/.test(body) || /^[0-9A-F]+$/.test(body)) return 16;
  return (
    (/[a-z]/.test(body) ? 26 : 0) +
    (/[A-Z]/.test(body) ? 26 : 0) +
    (/[0-9]/.test(body) ? 10 : 0) +
    (/[-._~+/]/.test(body) ? 6 : 0) +
    // Characters outside a Bearer token's syntax (refused anyway): counted as printable ASCII's other 32.
    (/[^A-Za-z0-9\-._~+/]/.test(body) ? 32 : 0)
  );
}

/**
 * Estimates a token's entropy in bits, the way a guesser would see it: the token is cut into the fewest
 * pieces, where a piece is one character, or a stretch that a pattern predicts (three or more equal or
 * consecutive characters along the alphabet, the digits or a keyboard row; a repeat of an earlier
 * stretch of three or more; a common word), and every piece costs log2 of the alphabet's size (digits
 * 10, hex 16, otherwise 26 per letter case, 10 for digits and 6 for `-._~+/` as used). Trailing `=`
 * padding counts for nothing. The estimate is an upper bound for made-up tokens (it knows few words), and
 * close to the truth for random ones: 32 random bytes in base64 come out near 256.
 */
export function estimateTokenBits(token: string): number {
  const body = token.replace(/=+$/, "").slice(0, MAX_TOKEN_LENGTH);
  const n = body.length;
  if (n === 0) return 0;
  const lower = body.toLowerCase();
  const plain = [...lower].map((c) => LEET[c] ?? c).join("");
  // run[i]: length of the longest run of one step starting at i (1 when none).
  const run = new Array<number>(n).fill(1);
  for (let i = n - 3; i >= 0; i--) {
    const s = step(lower[i] as string, lower[i + 1] as string);
    if (s === undefined) continue;
    let end = i + 1;
    while (end + 1 < n && step(lower[end] as string, lower[end + 1] as string) === s) end++;
    run[i] = end - i + 1;
  }
  // repeat[i]: longest stretch from i that also starts at an earlier position (it may overlap, as in LZ77).
  const repeat = new Array<number>(n).fill(0);
  let next = new Uint16Array(n + 1);
  for (let j = n - 1; j >= 0; j--) {
    // next[i] after this pass: common prefix length of the suffixes at j and i, for i > j.
    const current = new Uint16Array(n + 1);
    for (let i = n - 1; i > j; i--) {
      current[i] = lower[i] === lower[j] ? (next[i + 1] ?? 0) + 1 : 0;
      if ((current[i] ?? 0) > (repeat[i] ?? 0)) repeat[i] = current[i] ?? 0;
    }
    next = current;
  }
  // pieces[i]: the fewest pieces that cover the token from i on.
  const pieces = new Array<number>(n + 1).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let best = (pieces[i + 1] as number) + 1;
    const longest = Math.max(run[i] as number, repeat[i] as number);
    for (let len = 3; len <= longest; len++) best = Math.min(best, (pieces[i + len] as number) + 1);
    for (const word of COMMON_WORDS) {
      if (plain.startsWith(word, i)) best = Math.min(best, (pieces[i + word.length] as number) + 1);
    }
    pieces[i] = best;
  }
  return (pieces[0] as number) * Math.log2(alphabetSize(body));
}

/** What is wrong with a token, or undefined when it is fit to serve on. */
export function tokenProblem(token: string): { problem: BearerTokenProblem; message: string } | undefined {
  if (token.length > MAX_TOKEN_LENGTH) {
    return {
      problem: "too_long",
      message: `is ${token.length} characters, over ${MAX_TOKEN_LENGTH}; ${TOKEN_HINT}`,
    };
  }
  const syntax = syntaxProblem(token);
  if (syntax) {
    return {
      problem: "syntax",
      message:
        `${syntax}, which cannot be sent in an Authorization: Bearer header (allowed: letters, digits, ` +
        `- . _ ~ + / and = at the end); ${TOKEN_HINT}`,
    };
  }
  const bits = estimateTokenBits(token);
  if (bits < MIN_TOKEN_BITS) {
    return {
      problem: "weak",
      message:
        `is too easy to guess: about ${Math.floor(bits)} bits by Engram's estimate, at least ` +
        `${MIN_TOKEN_BITS} needed (repeats, runs like 1234 or abcd, and common words count for little); ` +
        TOKEN_HINT,
    };
  }
  return undefined;
}

/** Throws a {@link BearerTokenError} naming `path` (e.g. `token`) when the token is not fit to serve on. */
export function checkBearerToken(token: string, path: string): void {
  const found = tokenProblem(token);
  if (!found) return;
  const bits = found.problem === "weak" ? { bits: Math.floor(estimateTokenBits(token)) } : {};
  throw new BearerTokenError(`the bearer token ${found.message}`, { path, problem: found.problem, ...bits });
}
