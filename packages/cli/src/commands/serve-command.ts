import { EngramError } from "@engram/core";
import type { ServeSettings, serveSettings } from "@engram/mcp";
import { UsageError } from "../cli-error.js";
import { respond } from "../cli-output.js";
import { parseCommandArgs, READONLY_OPTION } from "../command-args.js";
import { withEngram } from "../open-engram.js";
import type { Command, CommandContext } from "./command.js";

const SERVE_OPTIONS = {
  http: { type: "boolean" },
  host: { type: "string" },
  port: { type: "string" },
  token: { type: "string" },
  "token-file": { type: "string" },
  "allowed-hosts": { type: "string" },
  "allowed-origins": { type: "string" },
  user: { type: "string" },
  ...READONLY_OPTION,
} as const;

// The MCP server loads when `serve` runs, not with every command.
async function settingsOf(
  values: Parameters<typeof serveSettings>[0],
  ctx: CommandContext,
): Promise<ServeSettings> {
  const { serveSettings } = await import("@engram/mcp");
  try {
    return serveSettings(values, ctx.env);
  } catch (error) {
    // A bad flag is a usage error here (exit 2), like every other command's.
    if (EngramError.isInstance(error)) throw new UsageError(error.message);
    throw error;
  }
}

async function runServe(args: readonly string[], ctx: CommandContext) {
  const { values, positionals } = parseCommandArgs(args, SERVE_OPTIONS, { names: ["TARGET"] });
  if (positionals[0] !== "mcp") {
    throw new UsageError(`unknown server ${JSON.stringify(positionals[0])}; expected: engram serve mcp`);
  }
  const settings = await settingsOf(values, ctx);
  const { runMcpServer } = await import("@engram/mcp");
  await withEngram(values, ctx.env, { mustExist: false }, (engram) =>
    runMcpServer({ engram, ...settings, log: (line) => ctx.io.stderr.write(`${line}\n`) }),
  );
  // Nothing on stdout in text mode: under stdio it carried the protocol until the client left.
  return respond(values.json, { server: "mcp", transport: settings.transport, stopped: true }, () => "");
}

export const serveCommand: Command = {
  name: "serve",
  usage:
    "mcp [--http [--host H] [--port P] [--token T | --token-file F] [--allowed-hosts LIST] " +
    "[--allowed-origins LIST]] [--user U]",
  summary: "serve the store to MCP clients over stdio (default) or Streamable HTTP, until stopped",
  details: [
    "stdio is for desktop clients that start the server themselves; see docs/mcp.md for their config.",
    "  --user U      the user for tool calls that pass no user_id (or $ENGRAM_USER)",
    "  --http        Streamable HTTP at http://HOST:PORT/mcp instead of stdio",
    "  --host H      address to bind (default 127.0.0.1; any other address needs --token or --token-file)",
    "  --port P      port (default 8787; 0 picks a free one)",
    "  --token T     admin bearer token every request must send (or $ENGRAM_MCP_TOKEN); on 127.0.0.1 one",
    "                is generated and printed on stderr when omitted",
    "  --token-file F  JSON bearer tokens, each for some users or admin (or $ENGRAM_MCP_TOKEN_FILE):",
    '                {"tokens": [{"token": "...", "users": ["alice"]}, {"token": "...", "admin": true}]}',
    "                a request naming a user outside its token's users gets 403",
    "  --allowed-hosts LIST    comma-separated Host names to answer besides 127.0.0.1, localhost, [::1]",
    "                and the bound address, e.g. mcp.example.com (or $ENGRAM_MCP_ALLOWED_HOSTS); others get 403",
    "  --allowed-origins LIST  comma-separated browser origins to answer besides loopback ones, e.g.",
    "                https://app.example.com (or $ENGRAM_MCP_ALLOWED_ORIGINS); others get 403",
    "Status lines go to stderr; stop with Ctrl-C (SIGINT) or SIGTERM.",
  ],
  run: runServe,
};
