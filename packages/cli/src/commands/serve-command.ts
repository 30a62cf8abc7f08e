import { EngramError } from "@engram/core";
import type { ServeSettings, serveSettings } from "@engram/mcp";
import { UsageError } from "../cli-error.js";
import { respond } from "../cli-output.js";
import { parseCommandArgs, READONLY_OPTION } from "../command-args.js";
import { withEngram } from "../open-engram.js";
import type { CommandContext } from "./command.js";

const SERVE_OPTIONS = {
  http: { type: "boolean" },
  host: { type: "string" },
  port: { type: "string" },
  token: { type: "string" },
  "token-file": { type: "string" },
  "allowed-hosts": { type: "string" },
  "allowed-origins": { type: "string" },
  "max-streams": { type: "string" },
  "max-streams-per-token": { type: "string" },
  "stream-idle-timeout": { type: "string" },
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

export async function runServe(args: readonly string[], ctx: CommandContext) {
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
