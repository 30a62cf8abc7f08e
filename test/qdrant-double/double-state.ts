import type { Collection } from "./collection.js";

/** Everything the double holds between requests. */
export interface DoubleState {
  readonly version: string;
  readonly collections: Map<string, Collection>;
  /** Incremented per accepted write, reported as `operation_id`. */
  nextOperationId: number;
}

export interface HandlerContext {
  readonly state: DoubleState;
  readonly params: Readonly<Record<string, string>>;
  /** Query params coerced to the spec's types (`wait` is a boolean). */
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
}

/** A handler returns the `result` of the JSON envelope, or a RawResponse to answer something else. */
export type Handler = (context: HandlerContext) => unknown;

/** An answer outside the `{result, status, time}` envelope (`GET /`, `/healthz`). */
export class RawResponse {
  constructor(
    readonly body: unknown,
    readonly contentType = "application/json",
  ) {}
}

/** What write endpoints answer: `completed` once applied when `wait=true`, else `acknowledged`. */
export function updateResult(context: HandlerContext): { operation_id: number; status: string } {
  const operationId = context.state.nextOperationId;
  context.state.nextOperationId += 1;
  return { operation_id: operationId, status: context.query.wait === true ? "completed" : "acknowledged" };
}
