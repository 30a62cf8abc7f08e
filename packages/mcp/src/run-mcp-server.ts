import type { Engram } from "@engram/core";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createEngramMcpServer } from "./create-mcp-server.js";
import type { EventStreamLimits } from "./event-streams.js";
import { type HttpAccessOptions, isLoopback, startHttpServer } from "./http-server.js";

export interface RunMcpServerOptions extends HttpAccessOptions, EventStreamLimits {
  readonly engram: Engram;
  readonly defaultUserId?: string | undefined;
  /** `stdio` (default): for desktop clients that spawn the server; it is local and trusted, so unscoped. */
  readonly transport?: "stdio" | "http";
  readonly port?: number | undefined;
  /** Where `tokens` came from, named in the status line. */
  readonly tokenFile?: string | undefined;
  /** Where status lines go. Never stdout: under stdio, stdout carries the protocol. */
  readonly log?: (line: string) => void;
  /** Stops the server. Default: SIGINT or SIGTERM (and, under stdio, the client closing stdin). */
  readonly signal?: AbortSignal;
}

/** Resolves on the first of: the abort signal, SIGINT/SIGTERM, or `extra` (e.g. stdin closing). */
function stopped(signal: AbortSignal | undefined, extra?: (stop: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    if (signal) {
      if (signal.aborted) return stop();
      signal.addEventListener("abort", stop, { once: true });
    } else {
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    }
    extra?.(stop);
  });
}

async function runStdio(options: RunMcpServerOptions, log: (line: string) => void): Promise<void> {
  const server = createEngramMcpServer(options);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  log("engram MCP server on stdio");
  await stopped(options.signal, (stop) => {
    process.stdin.once("end", stop);
    transport.onclose = stop;
  });
  await server.close();
}

async function runHttp(options: RunMcpServerOptions, log: (line: string) => void): Promise<void> {
  const handle = await startHttpServer(options);
  log(`engram MCP server on ${handle.url}`);
  if (handle.generatedToken) log(`bearer token (generated for this run): ${handle.token}`);
  if (options.tokens) {
    // Counts and names only: tokens are never printed.
    const admins = options.tokens.filter((g) => g.admin === true).length;
    const from = options.tokenFile ? ` from ${options.tokenFile}` : "";
    log(
      `${options.tokens.length} bearer token(s)${from}: ${admins} admin, ${options.tokens.length - admins} scoped`,
    );
  }
  if (!isLoopback(options.host ?? "127.0.0.1")) {
    log(`answering Host names ${handle.hostNames.join(", ")}; add others with --allowed-hosts`);
  }
  await stopped(options.signal);
  await handle.close();
}

/**
 * Runs the MCP server until it is stopped. The caller owns `engram` (and closes it afterwards), so the
 * same function serves the `engram-mcp` binary and `engram serve mcp`.
 */
export async function runMcpServer(options: RunMcpServerOptions): Promise<void> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (options.transport === "http") await runHttp(options, log);
  else await runStdio(options, log);
}
