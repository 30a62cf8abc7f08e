import type { IncomingMessage, ServerResponse } from "node:http";
import type { DoubleState, Handler } from "./double-state.js";
import { RawResponse } from "./double-state.js";
import type { FaultKind, RecordedRequest } from "./double-types.js";
import type { FaultDice } from "./fault-dice.js";
import { QdrantError } from "./qdrant-error.js";
import type { RequestValidator } from "./request-validator.js";
import { matchOperation, type SpecOperation } from "./spec-operations.js";

/** What one request needs from the running double. */
export interface ServeContext {
  readonly state: DoubleState;
  readonly operations: readonly SpecOperation[];
  readonly validator: RequestValidator;
  readonly handlers: ReadonlyMap<string, Handler>;
  readonly apiKey: string | undefined;
  readonly dice: () => FaultDice | undefined;
  readonly record: (request: RecordedRequest) => void;
  /** Timers of `timeout` faults, cleared on close. */
  readonly pending: Set<NodeJS.Timeout>;
}

/** Paths the server answers without an api key (`qdrant:src/actix/auth.rs` whitelist). */
const AUTH_FREE = new Set(["/", "/healthz", "/livez", "/readyz"]);

const NO_BODY = Symbol("no body");
type ParsedBody = unknown | typeof NO_BODY | SyntaxError;

function parseBody(raw: Buffer): ParsedBody {
  if (raw.length === 0) return NO_BODY;
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch (error) {
    return error as SyntaxError;
  }
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (response.destroyed) return;
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const type = typeof body === "string" ? "text/plain; charset=utf-8" : "application/json";
  response.writeHead(status, { "content-type": type, ...headers });
  response.end(text);
}

function sendError(response: ServerResponse, error: QdrantError, started: number): void {
  const body = error.plainText ? error.message : { status: { error: error.message }, time: elapsed(started) };
  send(response, error.status, body, { ...error.headers });
}

const elapsed = (started: number): number => (performance.now() - started) / 1000;

function checkApiKey(request: IncomingMessage, path: string, apiKey: string | undefined): void {
  if (apiKey === undefined || AUTH_FREE.has(path)) return;
  const header = request.headers["api-key"];
  const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1];
  const given = typeof header === "string" ? header : bearer;
  if (given === undefined)
    throw new QdrantError(401, "Must provide an API key or an Authorization bearer token", true);
  if (given !== apiKey) throw new QdrantError(403, "Invalid API key or JWT", true);
}

function faultError(kind: Exclude<FaultKind, "drop" | "timeout">, retryAfter: number): QdrantError {
  if (kind === "429") {
    return new QdrantError(429, "Rate limiting exceeded: Write rate limit exceeded, retry later", false, {
      "retry-after": String(retryAfter),
    });
  }
  return new QdrantError(503, "Service unavailable: Shard temporarily unavailable, retry later");
}

/** Applies an injected fault; true when the request is answered (or dropped) by it. */
function applyFault(
  context: ServeContext,
  response: ServerResponse,
  path: string,
  started: number,
): number | undefined {
  const dice = context.dice();
  const kind = dice?.roll(path);
  if (!dice || !kind) return undefined;
  if (kind === "drop") {
    response.socket?.destroy();
    return 0;
  }
  if (kind === "timeout") {
    const timer = setTimeout(() => {
      context.pending.delete(timer);
      sendError(response, new QdrantError(408, "Timeout: operation timed out"), started);
    }, dice.plan.delayMs ?? 2000);
    context.pending.add(timer);
    return 408;
  }
  const error = faultError(kind, dice.plan.retryAfterSeconds ?? 1);
  sendError(response, error, started);
  return error.status;
}

/** A request as read off the socket, before routing. */
interface Incoming {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly body: ParsedBody;
}

/** The body when the operation takes one: missing or malformed JSON is the server's 400. */
function requestBody(body: ParsedBody): unknown {
  if (body === NO_BODY) {
    throw new QdrantError(400, "Format error in JSON body: EOF while parsing a value at line 1 column 0");
  }
  if (body instanceof SyntaxError) throw new QdrantError(400, `Format error in JSON body: ${body.message}`);
  return body;
}

function runOperation(context: ServeContext, incoming: Incoming): { status: number; body: unknown } {
  const { method, path, query, body } = incoming;
  const matched = matchOperation(context.operations, method, path);
  if (!matched) return { status: 404, body: "" };
  const parsedQuery = context.validator.parseQuery(matched.operation, query);
  let payload: unknown;
  if (matched.operation.bodySchema !== undefined) {
    payload = requestBody(body);
    context.validator.validateBody(matched.operation, payload);
  }
  const handler = context.handlers.get(matched.operation.operationId);
  if (!handler) {
    throw new QdrantError(501, `Not implemented by the Qdrant double: ${matched.operation.operationId}`);
  }
  const started = performance.now();
  const result = handler({ state: context.state, params: matched.params, query: parsedQuery, body: payload });
  if (result instanceof RawResponse) return { status: 200, body: result.body };
  return { status: 200, body: { result, status: "ok", time: elapsed(started) } };
}

/** Serves one request: fault dice, api key, routing, validation, then the handler. */
export async function serveRequest(
  context: ServeContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const started = performance.now();
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const url = new URL(request.url ?? "/", "http://double");
  const query = Object.fromEntries(url.searchParams);
  const body = parseBody(Buffer.concat(chunks));
  const incoming: Incoming = { method: request.method ?? "GET", path: url.pathname, query, body };
  const recorded = {
    method: incoming.method,
    path: incoming.path,
    query,
    body: body === NO_BODY || body instanceof SyntaxError ? undefined : body,
  };
  const faulted = applyFault(context, response, url.pathname, started);
  if (faulted !== undefined) {
    context.record({ ...recorded, status: faulted });
    return;
  }
  let status: number;
  try {
    checkApiKey(request, url.pathname, context.apiKey);
    const answer = runOperation(context, incoming);
    status = answer.status;
    send(response, status, answer.body);
  } catch (error) {
    const qdrantError =
      error instanceof QdrantError ? error : new QdrantError(500, `Service internal error: ${String(error)}`);
    status = qdrantError.status;
    sendError(response, qdrantError, started);
  }
  context.record({ ...recorded, status });
}
