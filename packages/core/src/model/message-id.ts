import { createHash } from "node:crypto";
import type { Role } from "./memory-record.js";
import type { Cube } from "./scope.js";

/** What makes two dialogue turns the same turn. Defined in docs/message-identity.md. */
export interface MessageIdentity {
  readonly userId: string;
  readonly cube: Cube;
  readonly sessionId: string | null;
  readonly role: Role;
  /** When it was said (ISO 8601, as stored: `new Date(at).toISOString()`), or null when not known. */
  readonly at: string | null;
  /** The message text as stored (trimmed). */
  readonly text: string;
  /**
   * How many earlier messages of the same call (or file) share every field above: 0 for the first, 1 for
   * its first repeat... So "ok" said twice at the same time is two turns, and a repeated import of the
   * same call is recognised turn by turn.
   */
  readonly repeat: number;
}

/** Version tag hashed with the fields, so a future definition cannot collide with this one. */
const IDENTITY_VERSION = "engram.message.v1";

/**
 * The stable id of a dialogue turn: `msg_` and the first 32 hex digits (128 bits) of the SHA-256 of the
 * JSON array [version, userId, cube, sessionId, role, at, text, repeat]. The same turn stored again gets
 * the same id, which is how a repeated import stores nothing twice.
 */
export function messageId(identity: MessageIdentity): string {
  const { userId, cube, sessionId, role, at, text, repeat } = identity;
  const fields = [IDENTITY_VERSION, userId, cube, sessionId, role, at, text, repeat];
  return `msg_${createHash("sha256").update(JSON.stringify(fields)).digest("hex").slice(0, 32)}`;
}

/**
 * What makes two messages of a framework's turn the same: the id the framework keeps for the turn (a
 * LangGraph turn's user message id) in place of the time, which a re-run cannot know.
 */
export interface TurnMessageIdentity extends Omit<MessageIdentity, "at"> {
  readonly turnId: string;
}

const TURN_IDENTITY_VERSION = "engram.message.turn.v1";

/**
 * The stable id of a message of a turn the framework names: `msg_` and the first 32 hex digits of the
 * SHA-256 of [version, userId, cube, sessionId, role, turnId, text, repeat] (docs/message-identity.md).
 */
export function turnMessageId(identity: TurnMessageIdentity): string {
  const { userId, cube, sessionId, role, turnId, text, repeat } = identity;
  const fields = [TURN_IDENTITY_VERSION, userId, cube, sessionId, role, turnId, text, repeat];
  return `msg_${createHash("sha256").update(JSON.stringify(fields)).digest("hex").slice(0, 32)}`;
}

/**
 * For each message, how many earlier ones in the list share its identity fields (its `repeat`). `key`
 * gives those fields as one string.
 */
export function repeatCounts<T>(items: readonly T[], key: (item: T) => string): number[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const k = key(item);
    const n = seen.get(k) ?? 0;
    seen.set(k, n + 1);
    return n;
  });
}
