import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Engram, ValidationError } from "@engram/core";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createEngramMcpServer } from "./create-mcp-server.js";
import { createRequestGuard, type RequestGuard } from "./request-guard.js";

export const DEFAULT_HTTP_HOST = "127.0.0.1";
export const DEFAULT_HTTP_PORT = 8787;
export const MCP_PATH = "/mcp";
const MIN_TOKEN_LENGTH = 16;

/** Who may call the server and from where; checked before anything is opened. */
export interface HttpAccessOptions {
  /** Default 127.0.0.1. Any other address needs an explicit `token`. */
  readonly host?: string | undefined;
  /** Bearer token clients must send. Default on loopback: a random one, returned in the handle. */
  readonly token?: string | undefined;
  /** More Host names to answer besides loopback and the bound address: `name` or `name:port`. */
  readonly allowedHosts?: readonly string[] | undefined;
  /** More browser origins to answer besides loopback ones, e.g. `https://app.example.com`. */
  readonly allowedOrigins?: readonly string[] | undefined;
}

export interface HttpServerOptions extends HttpAccessOptions {
  readonly engram: Engram;
  readonly defaultUserId?: string | undefined;
  /** Default 8787; 0 picks a free port. */
  readonly port?: number | undefined;
}

export interface HttpServerHandle {
  /** The endpoint clients connect to, e.g. http://127.0.0.1:8787/mcp. */
  readonly url: string;
  readonly token: string;
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

/**
 * Checks the access rules before anything is opened: a non-loopback address needs a token, a token must
 * be long enough to resist guessing, and the allow-lists must be well formed.
 */
export function checkHttpAccess(options: HttpAccessOptions): void {
  createRequestGuard({ ...options, host: options.host ?? DEFAULT_HTTP_HOST });
  resolveToken(options.host ?? DEFAULT_HTTP_HOST, options.token);
}

function resolveToken(host: string, token: string | undefined): { token: string; generated: boolean } {
  if (token === undefined || token === "") {
    if (!isLoopback(host)) {
      throw new ValidationError(
        `refusing to serve MCP on ${host} without a bearer token: anyone who can reach it could read ` +
          "every user's memory; pass --token T (or set ENGRAM_MCP_TOKEN), or bind to 127.0.0.1",
        { details: { path: "token" } },
      );
    }
    return { token: randomBytes(24).toString("base64url"), generated: true };
  }
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new ValidationError(
      `the bearer token is too short (${token.length} characters); pass at least ${MIN_TOKEN_LENGTH}, ` +
        "e.g. the output of: node -e \"console.log(crypto.randomBytes(24).toString('base64url'))\"",
      { details: { path: "token" } },
    );
  }
  return { token, generated: false };
}

function authorized(req: IncomingMessage, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  const given = Buffer.from(match?.[1] ?? "", "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A JSON-RPC error body, as the SDK's transport writes for requests it refuses. 403 carries the SDK's
 * code for it (-32000); 401/404/500 keep the -32001 they always had.
 */
function reject(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  const code = status === 403 ? -32000 : -32001;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** Stateless: every request gets its own MCP server over the shared engine, so requests never share state. */
async function serveMcpRequest(req: IncomingMessage, res: ServerResponse, options: HttpServerOptions) {
  const server = createEngramMcpServer({ engram: options.engram, defaultUserId: options.defaultUserId });
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
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

function refused(req: IncomingMessage, res: ServerResponse, guard: RequestGuard): boolean {
  const refusal = guard.refusal(req);
  if (refusal) reject(res, 403, refusal);
  return refusal !== undefined;
}

/**
 * Serves MCP over Streamable HTTP at `/mcp`. Bound to 127.0.0.1 by default. A request whose Host or Origin
 * is foreign gets 403 (DNS-rebinding protection), one without `Authorization: Bearer <token>` 401; a
 * non-loopback address needs an explicit token.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServerHandle> {
  const host = options.host ?? DEFAULT_HTTP_HOST;
  const guard = createRequestGuard({ ...options, host });
  const { token, generated } = resolveToken(host, options.token);
  const expected = Buffer.from(token, "utf8");
  const http = createServer((req, res) => {
    // Host and Origin first: a rebinding page learns nothing, not even whether a path or token is right.
    if (refused(req, res, guard)) return;
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== MCP_PATH) return reject(res, 404, `not found; the MCP endpoint is ${MCP_PATH}`);
    if (!authorized(req, expected)) {
      return reject(res, 401, "missing or wrong bearer token; send Authorization: Bearer <token>", {
        "www-authenticate": 'Bearer realm="engram"',
      });
    }
    serveMcpRequest(req, res, options).catch((error: unknown) => {
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
