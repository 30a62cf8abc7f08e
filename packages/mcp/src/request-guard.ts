import type { IncomingMessage } from "node:http";
import { ValidationError } from "@engram/core";

/**
 * DNS-rebinding protection for the HTTP transport. A page on a foreign site that rebinds its name to
 * 127.0.0.1 still sends its own name in `Host` and its own `Origin`, so both are checked against names a
 * foreign page cannot present: loopback, the bound address, and what the operator allow-listed.
 */

/** Names every server answers: a foreign page cannot make a browser send them as its Host. */
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"] as const;

/** Addresses that bind every interface; they are not a name clients send in Host. */
const WILDCARD_ADDRESSES = new Set(["0.0.0.0", "::", "[::]", ""]);

// A Host header is a name or bracketed IPv6 address with an optional port; anything else (userinfo, a path)
// is refused outright rather than handed to a URL parser that might read a different host out of it.
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9_-]+(?:\.[a-z0-9_-]+)*)(?::(\d{1,5}))?$/i;

export interface RequestGuardOptions {
  /** The address the server binds; a concrete one (not 0.0.0.0) is admitted as a Host name. */
  readonly host: string;
  /** More Host names to answer: `name` (any port the server listens on, or none) or `name:port`. */
  readonly allowedHosts?: readonly string[] | undefined;
  /** More browser origins to answer, e.g. `https://app.example.com`; loopback origins always pass. */
  readonly allowedOrigins?: readonly string[] | undefined;
  /**
   * Also answer the server's own pages: an Origin of `http://` and the request's Host, once the Host has
   * passed. For a server that serves its page itself (the inspector), whatever name it is reached by.
   */
  readonly ownOrigin?: boolean | undefined;
}

export interface RequestGuard {
  /** Host names accepted without a port or with the listening port, for status lines. */
  readonly hostNames: readonly string[];
  /** Why the request must be refused with 403, or undefined when its Host and Origin are acceptable. */
  refusal(req: IncomingMessage): string | undefined;
}

interface HostName {
  readonly name: string;
  readonly port: number | undefined;
}

function parseHost(value: string): HostName | undefined {
  const m = HOST_HEADER.exec(value);
  if (!m?.[1]) return undefined;
  const port = m[2] === undefined ? undefined : Number(m[2]);
  if (port !== undefined && port > 65_535) return undefined;
  // Port 80 is http's default, so "name:80" and "name" are the same host, as a URL parser says too.
  return { name: m[1].toLowerCase(), port: port === 80 ? undefined : port };
}

function isLoopbackName(hostname: string): boolean {
  return (
    hostname === "localhost" || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

function hostEntries(values: readonly string[] | undefined): HostName[] {
  return (values ?? []).map((raw, i) => {
    const parsed = typeof raw === "string" ? parseHost(raw.trim()) : undefined;
    if (!parsed) {
      throw new ValidationError(
        `allowedHosts[${i}] ${JSON.stringify(raw)} is not a host name; give a name as clients send it in ` +
          'the Host header, such as "mcp.example.com" or "mcp.example.com:8443" (no scheme, path or wildcard)',
        { details: { path: `allowedHosts[${i}]` } },
      );
    }
    return parsed;
  });
}

function originEntries(values: readonly string[] | undefined): Set<string> {
  return new Set(
    (values ?? []).map((raw, i) => {
      const url = typeof raw === "string" && URL.canParse(raw.trim()) ? new URL(raw.trim()) : undefined;
      const bare = url !== undefined && url.pathname === "/" && !url.search && !url.hash && !url.username;
      if (!url || !bare || (url.protocol !== "http:" && url.protocol !== "https:")) {
        throw new ValidationError(
          `allowedOrigins[${i}] ${JSON.stringify(raw)} is not an origin; give scheme, host and optional ` +
            'port as a browser sends them, such as "https://app.example.com" (no path or wildcard)',
          { details: { path: `allowedOrigins[${i}]` } },
        );
      }
      return url.origin;
    }),
  );
}

/** The bound address as it appears in a Host header, or undefined for a wildcard address. */
function boundName(host: string): string | undefined {
  const name = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return WILDCARD_ADDRESSES.has(name) ? undefined : name.toLowerCase();
}

const shown = (value: string) => JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}...` : value);

/** Validates the allow-lists (a ValidationError names the bad entry) and returns the check to run per request. */
export function createRequestGuard(options: RequestGuardOptions): RequestGuard {
  const bound = boundName(options.host);
  const names = [...new Set([...LOOPBACK_NAMES, ...(bound ? [bound] : [])])];
  const hosts: HostName[] = [
    ...names.map((name) => ({ name, port: undefined })),
    ...hostEntries(options.allowedHosts),
  ];
  const origins = originEntries(options.allowedOrigins);

  const hostAllowed = (header: string | undefined, listeningPort: number | undefined): boolean => {
    const given = header === undefined ? undefined : parseHost(header);
    if (!given) return false;
    return hosts.some(
      (h) =>
        h.name === given.name &&
        (h.port === undefined
          ? given.port === undefined || given.port === listeningPort
          : given.port === h.port),
    );
  };

  const originAllowed = (header: string): boolean => {
    // "null" (sandboxed frames, file: pages) does not parse and is refused: any site can produce it.
    if (!URL.canParse(header)) return false;
    const url = new URL(header);
    if (url.protocol !== "http:" && url.protocol !== "https:") return false;
    return isLoopbackName(url.hostname) || origins.has(url.origin);
  };

  return {
    hostNames: [...names, ...hosts.slice(names.length).map((h) => (h.port ? `${h.name}:${h.port}` : h.name))],
    refusal(req) {
      const host = req.headers.host;
      if (!hostAllowed(host, req.socket.localPort)) {
        return (
          `Invalid Host header ${host === undefined ? "(none)" : shown(host)}: this server answers only ` +
          `${names.join(", ")} and the hosts allowed with --allowed-hosts`
        );
      }
      const origin = req.headers.origin;
      const own = options.ownOrigin === true && origin === `http://${host}`;
      // No Origin: not a browser (SDK clients, curl), so not a rebinding page; the bearer token still applies.
      if (origin !== undefined && !own && !originAllowed(origin)) {
        const others = options.ownOrigin ? "its own pages" : "the origins allowed with --allowed-origins";
        return (
          `Invalid Origin header ${shown(origin)}: this server answers browser pages from loopback origins ` +
          `and ${others}`
        );
      }
      return undefined;
    },
  };
}
