import { EngramError, type EngramErrorCode } from "@engram/core";
import { z } from "zod";

/** An API request refused with a status and a message the page shows as it is. */
export class HttpError extends Error {
  override readonly name = "HttpError";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const STATUS_OF_CODE: Record<EngramErrorCode, number> = {
  INVALID_INPUT: 400,
  SCOPE_REQUIRED: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  READ_ONLY: 409,
  EMBEDDER_MISMATCH: 409,
  UNSUPPORTED: 501,
  STORAGE: 500,
  MODEL: 500,
  CLOSED: 503,
};

/** The status and body of anything a handler threw: engine errors keep their code for the page. */
export function errorResponse(error: unknown): { status: number; body: { error: string; code?: string } } {
  if (error instanceof HttpError) return { status: error.status, body: { error: error.message } };
  if (error instanceof z.ZodError) {
    const issue = error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    return {
      status: 400,
      body: { error: `${where}${issue?.message ?? "invalid input"}`, code: "INVALID_INPUT" },
    };
  }
  if (EngramError.isInstance(error)) {
    return { status: STATUS_OF_CODE[error.code] ?? 500, body: { error: error.message, code: error.code } };
  }
  return { status: 500, body: { error: error instanceof Error ? error.message : String(error) } };
}
