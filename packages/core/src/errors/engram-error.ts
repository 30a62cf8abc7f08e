const MARKER = Symbol.for("engram.error");

/** The closed set of error codes; callers branch on `code`, never on the message. */
export const ERROR_CODES = [
  "INVALID_INPUT",
  "SCOPE_REQUIRED",
  "NOT_FOUND",
  "CONFLICT",
  "STORAGE",
  "MODEL",
  "CLOSED",
  "UNSUPPORTED",
  "READ_ONLY",
  "EMBEDDER_MISMATCH",
] as const;
export type EngramErrorCode = (typeof ERROR_CODES)[number];

export interface EngramErrorOptions {
  cause?: unknown;
  /** Structured detail, e.g. the failing field path or line number. */
  details?: Record<string, unknown>;
}

/** Base of every error Engram throws. Messages say what was wrong and what to pass instead. */
export class EngramError extends Error {
  readonly [MARKER] = true;
  readonly code: EngramErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: EngramErrorCode, message: string, options: EngramErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "EngramError";
    this.code = code;
    this.details = options.details ?? {};
  }

  /** True for any Engram error, even one thrown by another installed copy of the package. */
  static isInstance(value: unknown): value is EngramError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** Bad input at a public boundary; `details.path` names the field when one is at fault. */
export class ValidationError extends EngramError {
  constructor(message: string, options?: EngramErrorOptions) {
    super("INVALID_INPUT", message, options);
    this.name = "ValidationError";
  }
}

/** A call that would read or write memory without naming whose memory it is. */
export class ScopeError extends EngramError {
  constructor(message: string, options?: EngramErrorOptions) {
    super("SCOPE_REQUIRED", message, options);
    this.name = "ScopeError";
  }
}

export class NotFoundError extends EngramError {
  constructor(message: string, options?: EngramErrorOptions) {
    super("NOT_FOUND", message, options);
    this.name = "NotFoundError";
  }
}

export class ConflictError extends EngramError {
  constructor(message: string, options?: EngramErrorOptions) {
    super("CONFLICT", message, options);
    this.name = "ConflictError";
  }
}

/** A backend failure; wraps the driver's error (SQLite, Qdrant) as `cause`. */
export class StorageError extends EngramError {
  constructor(message: string, options?: EngramErrorOptions) {
    super("STORAGE", message, options);
    this.name = "StorageError";
  }
}

/**
 * The store stayed locked by other writers (other processes on the same SQLite file) for longer than
 * Engram waits; nothing of the operation was applied, so it can simply be tried again.
 */
export class StorageBusyError extends StorageError {
  constructor(message: string, options?: EngramErrorOptions) {
    super(message, options);
    this.name = "StorageBusyError";
  }
}

/** A language or embedding model failed or answered with something unusable. */
export class ModelError extends EngramError {
  constructor(message: string, options?: EngramErrorOptions) {
    super("MODEL", message, options);
    this.name = "ModelError";
  }
}

export class ClosedError extends EngramError {
  constructor(what: string) {
    super(
      "CLOSED",
      `${what} is closed; create a new instance with createEngram() instead of reusing a closed one`,
    );
    this.name = "ClosedError";
  }
}

export class UnsupportedError extends EngramError {
  constructor(message: string, options?: EngramErrorOptions) {
    super("UNSUPPORTED", message, options);
    this.name = "UnsupportedError";
  }
}

/**
 * A write to a store opened read-only (`readonly: true`, or a file this process cannot write); the message
 * says which store and why it is read-only. Reads work.
 */
export class ReadOnlyError extends EngramError {
  constructor(message: string, options?: EngramErrorOptions) {
    super("READ_ONLY", message, options);
    this.name = "ReadOnlyError";
  }
}

/**
 * The store's vectors were made by another embedder than the one configured (or one with another number
 * of dimensions), or a move to a new embedder is under way: searching or writing would mix two vector
 * spaces. `details.stored` and `details.configured` name both; `engram reembed` moves a store.
 */
export class EmbedderMismatchError extends EngramError {
  constructor(message: string, options?: EngramErrorOptions) {
    super("EMBEDDER_MISMATCH", message, options);
    this.name = "EmbedderMismatchError";
  }
}
