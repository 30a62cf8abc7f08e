import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Engram, ValidationError } from "@engram/core";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import { checkBearerToken, generateToken } from "./bearer-token.js";
import { createEngramMcpServer } from "./create-mcp-server.js";
import { createStreamLimiter, type EventStreamLimits, resolveStreamLimits } from "./event-streams.js";
import { createRequestGuard, type RequestGuard } from "./request-guard.js";
import { bearerMatcher, parseTokenGrants, type TokenAccess, type TokenGrant } from "./token-grants.js";
import { forbiddenTarget, scopeOf, type UserScope } from "./user-scope.js";

export const DEFAULT_HTTP_HOST = "127.0.0.1";
export const DEFAULT_HTTP_PORT = 8787;
export const MCP_PATH = "/mcp";
/** The SDK transport's own default limit, applied here because the body is read before it. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Who may call the server and from where; checked before anything is opened. */
export interface HttpAccessOptions {
  /** Default 127.0.0.1. Any other address needs an explicit `token` or `tokens`. */
  readonly host?: string | undefined;
  /** An admin bearer token (every user). Default on loopback without `tokens`: a random one. */
  readonly token?: string | undefined;
  /** Bearer tokens, each for some users or admin; instead of `token`. */
  readonly tokens?: readonly TokenGrant[] | undefined;
  /** More Host names to answer besides loopback and the bound address: `name` or `name:port`. */
  readonly allowedHosts?: readonly string[] | undefined;
  /** More browser origins to answer besides loopback ones, e.g. `https://app.example.com`. */
  readonly allowedOrigins?: readonly string[] | undefined;
}

export interface HttpServerOptions extends HttpAccessOptions, EventStreamLimits {
  readonly engram: Engram;
  readonly defaultUserId?: string | undefined;
  /** Default 8787; 0 picks a free port. */
  readonly port?: number | undefined;
}

export interface HttpServerHandle {
  /** The endpoint clients connect to, e.g. http://127.0.0.1:8787/mcp. */
  readonly url: string;
  /** The admin token, given or generated; undefined when the server runs on `tokens`. */
  readonly token: string | undefined;
  /** True when the token was generated because none was given. */
  readonly generatedToken: boolean;
  /** The Host header names the server answers, e.g. for a status line. */
  readonly hostNames: readonly string[];
  close(): Promise<void>;
}

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

interface ResolvedAccess {
  readonly grants: readonly TokenGrant[];
  readonly token: string | undefined;
  readonly generated: boolean;
  readonly guard: RequestGuard;
}

function resolveAccess(options: HttpAccessOptions): ResolvedAccess {
  const host = options.host ?? DEFAULT_HTTP_HOST;
  const guard = createRequestGuard({ ...options, host });
  const token = options.token === "" ? undefined : options.token;
  if (options.tokens !== undefined) {
    if (token !== undefined) {
      throw new ValidationError(
        'pass token or tokens, not both; an admin token goes in tokens as { token: "...", admin: true }',
        { details: { path: "token" } },
      );
    }
    return { grants: parseTokenGrants(options.tokens), token: undefined, generated: false, guard };
  }
  if (token === undefined) {
    if (!isLoopback(host)) {
      throw new ValidationError(
        `refusing to serve MCP on ${host} without a bearer token: anyone who can reach it could read ` +
          "every user's memory; pass --token T or --token-file F (or set ENGRAM_MCP_TOKEN), " +
          "or bind to 127.0.0.1",
        { details: { path: "token" } },
      );
    }
    const generated = generateToken();
    return { grants: [{ token: generated, admin: true }], token: generated, generated: true, guard };
  }
  checkBearerToken(token, "token");
  return { grants: [{ token, admin: true }], token, generated: false, guard };
}

/**
 * Checks the access rules before anything is opened: a non-loopback address needs a token, every token must
 * be a valid Bearer credential with enough entropy to resist guessing ({@link BearerTokenError} otherwise),
 * and token grants, allow-lists and event-stream limits must be well formed.
 */
export function checkHttpAccess(options: HttpAccessOptions & EventStreamLimits): void {
  resolveAccess(options);
  resolveStreamLimits(options);
}

/**
 * A JSON-RPC error body, as the SDK's transport writes for requests it refuses. Refusals the SDK also
 * makes (403, 405, 413, 415) and the stream bounds (429, 503) carry its code for them (-32000), a parse
 * error -32700; 401/404/500 keep the -32001 they always had.
 */
function reject(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  const code = status === 400 ? -32700 : [403, 405, 413, 415, 429, 503].includes(status) ? -32000 : -32001;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

type Body = { readonly value: unknown } | { readonly status: 400 | 413; readonly message: string };

/** Reads a JSON body so its messages can be authorised before dispatch; the transport then reuses it. */
async function readJsonBody(req: IncomingMessage): Promise<Body> {
  const tooLarge = { status: 413, message: `request body over ${MAX_BODY_BYTES} bytes` } as const;
  if (Number(req.headers["content-length"]) > MAX_BODY_BYTES) return tooLarge;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return tooLarge;
    chunks.push(chunk as Buffer);
  }
  try {
    return { value: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
  } catch {
    return { status: 400, message: "Parse error: Invalid JSON" };
  }
}

type StreamLimiter = ReturnType<typeof createStreamLimiter>;

/**
 * Stateless: every request gets its own MCP server over the shared engine, scoped to its token. `prepare`
 * sees the transport once it is connected, before the request is handled.
 */
async function serveMcp(
  req: IncomingMessage,
  res: ServerResponse,
  engram: Engram,
  scope: UserScope,
  body: unknown,
  prepare?: (transport: StreamableHTTPServerTransport) => void,
) {
  const server = createEngramMcpServer({ engram, ...scope });
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  prepare?.(transport);
  await transport.handleRequest(req, res, body);
}

/**
 * A GET opens an event stream that the transport keeps open with keep-alive comments and never ends by
 * itself (one per session in the SDK, but a stateless server has no session to bound it): admit it within
 * the bounds, and close it once it has carried no message for the idle timeout.
 */
async function serveEventStream(
  req: IncomingMessage,
  res: ServerResponse,
  engram: Engram,
  scope: UserScope,
  admission: { limiter: StreamLimiter; key: object },
) {
  let transport: StreamableHTTPServerTransport | undefined;
  const admitted = admission.limiter.admit(admission.key, () => {
    // Headers out means the transport has registered the stream; before that, look again a timeout later.
    if (transport && res.headersSent) transport.closeStandaloneSSEStream();
    else if ("slot" in admitted) admitted.slot.touch();
  });
  if (!("slot" in admitted)) {
    const retry = admitted.retryAfterSeconds;
    const headers: Record<string, string> = admitted.status === 405 ? { allow: "POST" } : {};
    if (retry !== undefined) headers["retry-after"] = String(retry);
    return reject(res, admitted.status, admitted.message, headers);
  }
  const { slot } = admitted;
  res.on("close", () => slot.release());
  await serveMcp(req, res, engram, scope, undefined, (connected) => {
    transport = connected;
    // A message sent without a request to answer goes out on this stream: it is not idle then.
    const send = connected.send.bind(connected);
    connected.send = (message, options) => {
      slot.touch();
      return send(message, options);
    };
  });
}

interface Access {
  readonly guard: RequestGuard;
  readonly match: (authorization: string | undefined) => TokenAccess | undefined;
  readonly streams: StreamLimiter;
}

const acceptsEventStream = (req: IncomingMessage) =>
  (req.headers.accept ?? "").toLowerCase().includes("text/event-stream");

async function handle(req: IncomingMessage, res: ServerResponse, options: HttpServerOptions, access: Access) {
  // Host and Origin first: a rebinding page learns nothing, not even whether a path or token is right.
  const refused = access.guard.refusal(req);
  if (refused) return reject(res, 403, refused);
  const path = new URL(req.url ?? "/", "http://localhost").pathname;
  if (path !== MCP_PATH) return reject(res, 404, `not found; the MCP endpoint is ${MCP_PATH}`);
  const grant = access.match(req.headers.authorization);
  if (!grant) {
    return reject(res, 401, "missing or wrong bearer token; send Authorization: Bearer <token>", {
      "www-authenticate": 'Bearer realm="engram"',
    });
  }
  const scope = scopeOf(grant, options.defaultUserId);
  // Without text/event-stream in Accept the transport answers 406 at once: no stream, nothing to count.
  if (req.method === "GET" && acceptsEventStream(req)) {
    return serveEventStream(req, res, options.engram, scope, { limiter: access.streams, key: grant });
  }
  let body: unknown;
  if (req.method === "POST") {
    // The media type as the transport reads it (case-insensitive, parameters allowed), so every body it
    // would dispatch is checked here first; any other body is refused here, never handed on unchecked.
    if (!isJsonContentType(req.headers["content-type"])) {
      return reject(res, 415, "Unsupported Media Type: Content-Type must be application/json");
    }
    const read = await readJsonBody(req);
    if ("status" in read) return reject(res, read.status, read.message);
    const forbidden = forbiddenTarget(read.value, scope);
    if (forbidden) return reject(res, 403, `Forbidden: ${forbidden.message}`);
    body = read.value;
  }
  await serveMcp(req, res, options.engram, scope, body);
}

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Serves MCP over Streamable HTTP at `/mcp`. Bound to 127.0.0.1 by default. A request whose Host or Origin
 * is foreign gets 403 (DNS-rebinding protection), one without a known bearer token 401, and one naming a
 * user outside its token's scope 403. GET event streams are bounded per token (429) and overall (503), and
 * closed when idle.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServerHandle> {
  const host = options.host ?? DEFAULT_HTTP_HOST;
  const { grants, token, generated, guard } = resolveAccess(options);
  const access: Access = { guard, match: bearerMatcher(grants), streams: createStreamLimiter(options) };
  const http = createServer((req, res) => {
    handle(req, res, options, access).catch((error: unknown) => {
      if (!res.headersSent) reject(res, 500, error instanceof Error ? error.message : String(error));
    });
  });
  const address = await listen(http, host, options.port ?? DEFAULT_HTTP_PORT);
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${MCP_PATH}`,
    token,
    generatedToken: generated,
    hostNames: guard.hostNames,
    close: () =>
      new Promise<void>((resolve, reject) => {
        http.close((error) => (error ? reject(error) : resolve()));
        http.closeAllConnections();
      }),
  };
}
