import { resolve } from "node:path";
import { ValidationError } from "@engram/core";
import { checkHttpAccess, DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT } from "./http-server.js";
import { loadTokenFile, type TokenGrant } from "./token-grants.js";

/** Flags as a command line gives them (strings), before checking. */
export interface ServeFlags {
  readonly http?: boolean | undefined;
  readonly host?: string | undefined;
  readonly port?: string | undefined;
  readonly token?: string | undefined;
  readonly "token-file"?: string | undefined;
  readonly "allowed-hosts"?: string | undefined;
  readonly "allowed-origins"?: string | undefined;
  readonly "max-streams"?: string | undefined;
  readonly "max-streams-per-token"?: string | undefined;
  readonly "stream-idle-timeout"?: string | undefined;
  readonly user?: string | undefined;
}

export interface ServeSettings {
  readonly transport: "stdio" | "http";
  readonly host: string;
  readonly port: number;
  readonly token: string | undefined;
  /** The grants of the token file, when one was given. */
  readonly tokens: readonly TokenGrant[] | undefined;
  /** The token file's absolute path, for status lines. */
  readonly tokenFile: string | undefined;
  readonly allowedHosts: readonly string[];
  readonly allowedOrigins: readonly string[];
  readonly defaultUserId: string | undefined;
  /** GET event-stream bounds; undefined keeps the server's default. */
  readonly maxStreams: number | undefined;
  readonly maxStreamsPerToken: number | undefined;
  readonly streamIdleTimeoutMs: number | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

const HTTP_ONLY = [
  "host",
  "port",
  "token",
  "token-file",
  "allowed-hosts",
  "allowed-origins",
  "max-streams",
  "max-streams-per-token",
  "stream-idle-timeout",
] as const;

function portOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_HTTP_PORT;
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || n > 65_535) {
    throw new ValidationError(
      `bad --port ${JSON.stringify(value)}: expected a whole number from 0 to 65535`,
      {
        details: { path: "port" },
      },
    );
  }
  return n;
}

/** A whole-number flag from min to max, or undefined when not given. */
function wholeNumberOf(
  flag: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || n < min || n > max) {
    throw new ValidationError(
      `bad --${flag} ${JSON.stringify(value)}: expected a whole number from ${min} to ${max}`,
      { details: { path: flag } },
    );
  }
  return n;
}

const MAX_COUNT = 1_000_000;
/** The longest timer Node.js keeps, in whole seconds. */
const MAX_IDLE_SECONDS = Math.floor((2 ** 31 - 1) / 1000);
const seconds = (s: number | undefined) => (s === undefined ? undefined : s * 1000);

/** A comma-separated flag or variable as a list; empty items are dropped. */
function listOf(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/**
 * The token or token file: from the flags when either is given (both is an error), else from
 * ENGRAM_MCP_TOKEN or ENGRAM_MCP_TOKEN_FILE (both set is an error too), so one source decides who gets in.
 */
function credentialsOf(flags: ServeFlags, env: Env): { token?: string; tokenFile?: string } {
  const fromFlags = flags.token !== undefined || flags["token-file"] !== undefined;
  const token = fromFlags ? flags.token : env.ENGRAM_MCP_TOKEN || undefined;
  const tokenFile = fromFlags ? flags["token-file"] : env.ENGRAM_MCP_TOKEN_FILE || undefined;
  if (token !== undefined && tokenFile !== undefined) {
    const names = fromFlags ? "--token and --token-file" : "ENGRAM_MCP_TOKEN and ENGRAM_MCP_TOKEN_FILE";
    throw new ValidationError(
      `${names} both given; use one (an admin token goes in the token file as {"token": "...", "admin": true})`,
      { details: { path: "token" } },
    );
  }
  return { ...(token === undefined ? {} : { token }), ...(tokenFile === undefined ? {} : { tokenFile }) };
}

/**
 * Flags first, then the environment: ENGRAM_USER (default user), ENGRAM_MCP_TOKEN (bearer token, so it
 * need not appear in a process list), ENGRAM_MCP_TOKEN_FILE, ENGRAM_MCP_ALLOWED_HOSTS and
 * ENGRAM_MCP_ALLOWED_ORIGINS. HTTP-only flags without --http are an error, not silently ignored.
 */
export function serveSettings(flags: ServeFlags, env: Env): ServeSettings {
  if (!flags.http) {
    const stray = HTTP_ONLY.find((f) => flags[f] !== undefined);
    if (stray) {
      throw new ValidationError(`--${stray} applies to the HTTP transport only; add --http`, {
        details: { path: stray },
      });
    }
  }
  const http = flags.http === true;
  const { token, tokenFile } = http ? credentialsOf(flags, env) : {};
  const file = tokenFile === undefined ? undefined : resolve(tokenFile);
  const settings: ServeSettings = {
    transport: http ? "http" : "stdio",
    host: flags.host ?? DEFAULT_HTTP_HOST,
    port: portOf(flags.port),
    token,
    tokens: file === undefined ? undefined : loadTokenFile(file),
    tokenFile: file,
    allowedHosts: listOf(flags["allowed-hosts"] ?? env.ENGRAM_MCP_ALLOWED_HOSTS),
    allowedOrigins: listOf(flags["allowed-origins"] ?? env.ENGRAM_MCP_ALLOWED_ORIGINS),
    defaultUserId: flags.user ?? (env.ENGRAM_USER || undefined),
    maxStreams: wholeNumberOf("max-streams", flags["max-streams"], 0, MAX_COUNT),
    maxStreamsPerToken: wholeNumberOf("max-streams-per-token", flags["max-streams-per-token"], 1, MAX_COUNT),
    streamIdleTimeoutMs: seconds(
      wholeNumberOf("stream-idle-timeout", flags["stream-idle-timeout"], 1, MAX_IDLE_SECONDS),
    ),
  };
  // Refuse before the store is opened, so a refused start leaves no file behind.
  if (http) checkHttpAccess(settings);
  return settings;
}
