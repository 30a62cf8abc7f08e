import { ValidationError } from "@engram/core";
import { checkHttpAccess, DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT } from "./http-server.js";

/** Flags as a command line gives them (strings), before checking. */
export interface ServeFlags {
  readonly http?: boolean | undefined;
  readonly host?: string | undefined;
  readonly port?: string | undefined;
  readonly token?: string | undefined;
  readonly user?: string | undefined;
}

export interface ServeSettings {
  readonly transport: "stdio" | "http";
  readonly host: string;
  readonly port: number;
  readonly token: string | undefined;
  readonly defaultUserId: string | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

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

/**
 * Flags first, then the environment: ENGRAM_USER (default user), ENGRAM_MCP_TOKEN (bearer token, so it
 * need not appear in a process list). HTTP-only flags without --http are an error, not silently ignored.
 */
export function serveSettings(flags: ServeFlags, env: Env): ServeSettings {
  if (!flags.http) {
    const stray = (["host", "port", "token"] as const).find((f) => flags[f] !== undefined);
    if (stray) {
      throw new ValidationError(`--${stray} applies to the HTTP transport only; add --http`, {
        details: { path: stray },
      });
    }
  }
  const settings: ServeSettings = {
    transport: flags.http ? "http" : "stdio",
    host: flags.host ?? DEFAULT_HTTP_HOST,
    port: portOf(flags.port),
    token: flags.token ?? (env.ENGRAM_MCP_TOKEN || undefined),
    defaultUserId: flags.user ?? (env.ENGRAM_USER || undefined),
  };
  // Refuse before the store is opened, so a refused start leaves no file behind.
  if (settings.transport === "http") checkHttpAccess(settings.host, settings.token);
  return settings;
}
