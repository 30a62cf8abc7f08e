import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, get, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Engram } from "@engram/core";
import { createRequestGuard, isLoopback } from "@engram/mcp";
import { errorResponse, HttpError } from "./http-error.js";
import { inlinePage } from "./ui-page.js";
import { routeRequest } from "./ui-routes.js";
import { warmUp } from "./ui-views.js";

export const DEFAULT_UI_HOST = "127.0.0.1";
const MAX_BODY_BYTES = 256 * 1024;

// The page's files, shipped in the package beside src/ and dist/ (both are one level below it). The page
// itself comes with the stylesheet and modules inlined (ui-page.ts); they are served one by one as well.
const ASSET_DIR = new URL("../../ui/", import.meta.url);
const ASSETS: Record<string, { file: string; type: string }> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/app.css": { file: "app.css", type: "text/css; charset=utf-8" },
  "/app.js": { file: "app.js", type: "text/javascript; charset=utf-8" },
  "/api.js": { file: "api.js", type: "text/javascript; charset=utf-8" },
  "/dom.js": { file: "dom.js", type: "text/javascript; charset=utf-8" },
  "/views.js": { file: "views.js", type: "text/javascript; charset=utf-8" },
  "/user-view.js": { file: "user-view.js", type: "text/javascript; charset=utf-8" },
  "/memory-view.js": { file: "memory-view.js", type: "text/javascript; charset=utf-8" },
};

/** Only the page's own files run: an injected script or inline handler is blocked even if it got in. */
const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

/**
 * The policy for the page: its inline script and style (index.html's early API call, and the stylesheet
 * and modules inlined into it) are allowed by their SHA-256 hashes, so any other inline code still is not.
 */
function pagePolicy(html: string): string {
  const hashes = (re: RegExp) =>
    [...html.matchAll(re)]
      .map(
        (m) =>
          `'sha256-${createHash("sha256")
            .update(m[1] ?? "")
            .digest("base64")}'`,
      )
      .join(" ");
  return SECURITY_HEADERS["content-security-policy"]
    .replace(
      "script-src 'self'",
      `script-src 'self' ${hashes(/<script(?: type="module")?>([\s\S]*?)<\/script>/g)}`,
    )
    .replace("style-src 'self'", `style-src 'self' ${hashes(/<style>([\s\S]*?)<\/style>/g)}`);
}

export interface UiServerOptions {
  readonly engram: Engram;
  /** Default 127.0.0.1; another address needs `allowRemote`. */
  readonly host?: string | undefined;
  /** Default 0: a free port. */
  readonly port?: number | undefined;
  /** Default: 32 random bytes. Tests pass one. */
  readonly token?: string | undefined;
  /** Serve on a non-loopback address: anyone who can reach it and learns the token sees every user. */
  readonly allowRemote?: boolean | undefined;
  /**
   * More Host names to answer besides loopback and the bound address, as `serve mcp --allowed-hosts` takes
   * them (`name` or `name:port`): the names the page is reached by through a bound wildcard address or
   * a proxy. The page's changes are accepted from each of them (same origin).
   */
  readonly allowedHosts?: readonly string[] | undefined;
}

export interface UiServerHandle {
  /** The page, with the session token in its query: open this. */
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  /** The Host names answered (loopback, the bound address, the allowed hosts). */
  readonly hostNames: readonly string[];
  close(): Promise<void>;
}

/** Addresses that bind every interface: the URL names the loopback one of their family instead. */
const WILDCARD_URL_HOSTS: Readonly<Record<string, string>> = { "0.0.0.0": "127.0.0.1", "::": "[::1]" };

/**
 * The Host check for the inspector: loopback names, the bound address and `allowedHosts`, and the page's
 * own origin under any of them. Validates `allowedHosts` (a ValidationError names a bad entry).
 */
export function uiRequestGuard(host: string, allowedHosts: readonly string[] | undefined) {
  return createRequestGuard({ host, allowedHosts, ownOrigin: true });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { ...SECURITY_HEADERS, "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function tokenMatcher(token: string): (authorization: string | undefined) => boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  const expected = digest(token);
  return (authorization) => {
    const given = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
    return given !== undefined && timingSafeEqual(digest(given), expected);
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  if (!(req.headers["content-type"] ?? "").startsWith("application/json")) {
    throw new HttpError(415, "send the body as application/json");
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new HttpError(400, "the body is not valid JSON");
  }
}

/**
 * A change must come from this page: a browser always sends Origin on such requests, and it must be this
 * server's own origin (the Host was checked already), so neither another site nor another local server's
 * page can make one, even one that learnt the token.
 */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin !== `http://${req.headers.host}`) return false;
  const site = req.headers["sec-fetch-site"];
  return site === undefined || site === "same-origin";
}

interface Asset {
  readonly body: Buffer;
  readonly etag: string;
  readonly headers: Record<string, string>;
}

const assetCache = new Map<string, Asset>();

/** Read once per process: the files ship with the package and do not change while it runs. */
function loadAsset(file: string, type: string): Asset {
  let asset = assetCache.get(file);
  if (!asset) {
    const read = (name: string) => readFileSync(new URL(name, ASSET_DIR), "utf8");
    const body =
      file === "index.html" ? Buffer.from(inlinePage(read)) : readFileSync(new URL(file, ASSET_DIR));
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
    const policy =
      file === "index.html" ? { "content-security-policy": pagePolicy(body.toString("utf8")) } : {};
    // no-cache: kept by the browser but revalidated, so an upgraded package's files are never stale.
    const headers = {
      ...SECURITY_HEADERS,
      ...policy,
      "content-type": type,
      etag,
      "cache-control": "no-cache",
    };
    asset = { body, etag, headers };
    assetCache.set(file, asset);
  }
  return asset;
}

function serveAsset(req: IncomingMessage, res: ServerResponse, path: string, method: string): boolean {
  const entry = ASSETS[path];
  if (!entry || (method !== "GET" && method !== "HEAD")) return false;
  const asset = loadAsset(entry.file, entry.type);
  if (req.headers["if-none-match"] === asset.etag) {
    res.writeHead(304, asset.headers);
    res.end();
    return true;
  }
  res.writeHead(200, asset.headers);
  res.end(method === "HEAD" ? undefined : asset.body);
  return true;
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  engram: Engram,
  access: {
    refusal: (req: IncomingMessage) => string | undefined;
    tokenOk: (a: string | undefined) => boolean;
  },
) {
  // Host and Origin first: a DNS-rebinding page learns nothing, not even which paths exist.
  const refused = access.refusal(req);
  if (refused) return send(res, 403, { error: refused });
  const url = new URL(req.url ?? "/", "http://localhost");
  const method = req.method ?? "GET";
  if (serveAsset(req, res, url.pathname, method)) return;
  if (!url.pathname.startsWith("/api/")) return send(res, 404, { error: "not found" });
  if (!access.tokenOk(req.headers.authorization)) {
    return send(res, 401, { error: "missing or wrong session token; open the URL engram ui printed" });
  }
  const changes = method !== "GET" && method !== "HEAD";
  if (changes && !sameOrigin(req)) {
    return send(res, 403, { error: "changes are accepted only from the inspector page itself (Origin)" });
  }
  try {
    // DELETE names everything in its path; the other changes carry a JSON body.
    const body = changes && method !== "DELETE" ? await readJson(req) : undefined;
    const result = await routeRequest(engram, { method, path: url.pathname, query: url.searchParams, body });
    send(res, 200, result.body, result.headers);
  } catch (error) {
    const { status, body } = errorResponse(error);
    send(res, status, body);
  }
}

/**
 * Asks the server for `path` as the page would and reads the answer: the first connection and request of
 * the process run code the warm-up reads do not (parsing, the checks, serializing the answer, writing it).
 * Best effort: any answer, an error or no answer within 2 s all end it.
 */
function selfRequest(origin: string, path: string, token: string): Promise<void> {
  return new Promise((resolve) => {
    const req = get(`${origin}${path}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.once("end", resolve);
      res.once("error", () => resolve());
    });
    req.once("error", () => resolve());
    req.setTimeout(2000, () => req.destroy());
  });
}

/** Serves the inspector page and its JSON API until closed. */
export async function startUiServer(options: UiServerOptions): Promise<UiServerHandle> {
  const host = options.host ?? DEFAULT_UI_HOST;
  if (!isLoopback(host) && !options.allowRemote) {
    throw new HttpError(
      400,
      `refusing to serve the inspector on ${host}: anyone who can reach it could read and erase every ` +
        "user's memory; bind to 127.0.0.1, or pass --allow-remote if this network is trusted",
    );
  }
  const token = options.token ?? randomBytes(32).toString("base64url");
  const guard = uiRequestGuard(host, options.allowedHosts);
  const access = { refusal: (req: IncomingMessage) => guard.refusal(req), tokenOk: tokenMatcher(token) };
  // The page and the user view's reads are made ready before the URL is printed (docs/inspector.md).
  loadAsset("index.html", "text/html; charset=utf-8");
  const warmed = await warmUp(options.engram);
  const server = createServer((req, res) => {
    handle(req, res, options.engram, access).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve(server.address() as AddressInfo));
  });
  // A wildcard address is no name a browser can send as its Host: the URL names loopback instead.
  const shownHost =
    WILDCARD_URL_HOSTS[address.address] ??
    (address.family === "IPv6" ? `[${address.address}]` : address.address);
  const origin = `http://${shownHost}:${address.port}`;
  await selfRequest(origin, "/", token);
  await selfRequest(origin, `/api/users/${encodeURIComponent(warmed[0] ?? "engram-ui-warm-up")}`, token);
  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    hostNames: guard.hostNames,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
