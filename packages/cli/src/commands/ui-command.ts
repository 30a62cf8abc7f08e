import { EngramError } from "@engram/core";
import { UsageError } from "../cli-error.js";
import { respond } from "../cli-output.js";
import { integerFlag, parseCommandArgs, READONLY_OPTION } from "../command-args.js";
import { withEngram } from "../open-engram.js";
import { HttpError } from "../ui/http-error.js";
import type { startUiServer, uiRequestGuard } from "../ui/ui-server.js";
import type { CommandContext } from "./command.js";

const UI_OPTIONS = {
  host: { type: "string" },
  port: { type: "string" },
  "allow-remote": { type: "boolean" },
  "allowed-hosts": { type: "string" },
  ...READONLY_OPTION,
} as const;

/** `a.example.com, b.example.com:8443` as a list, as `serve mcp --allowed-hosts` reads it. */
function hostList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** Checks --allowed-hosts before the store is opened: a bad entry is a usage error naming it. */
function checkAllowedHosts(guard: typeof uiRequestGuard, host: string, allowedHosts: readonly string[]) {
  try {
    guard(host, allowedHosts);
  } catch (error) {
    if (EngramError.isInstance(error)) throw new UsageError(`--allowed-hosts: ${error.message}`);
    throw error;
  }
}

/** Resolves on SIGINT/SIGTERM, or when the context's signal aborts (tests). */
function stopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    if (signal?.aborted) return stop();
    signal?.addEventListener("abort", stop, { once: true });
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

export async function runUi(args: readonly string[], ctx: CommandContext) {
  const { values } = parseCommandArgs(args, UI_OPTIONS, { names: [] });
  const port = integerFlag(values.port, "port", { min: 0, max: 65_535 });
  const allowedHosts = hostList(values["allowed-hosts"]);
  const { startUiServer, uiRequestGuard, DEFAULT_UI_HOST } = await import("../ui/ui-server.js");
  const host = values.host ?? DEFAULT_UI_HOST;
  checkAllowedHosts(uiRequestGuard, host, allowedHosts);
  const served = await withEngram(values, ctx.env, { mustExist: true }, async (engram) => {
    let server: Awaited<ReturnType<typeof startUiServer>>;
    try {
      server = await startUiServer({
        engram,
        host,
        port,
        allowRemote: values["allow-remote"],
        allowedHosts,
      });
    } catch (error) {
      // A refused address is a usage error (exit 2), as for every other bad flag.
      if (error instanceof HttpError) throw new UsageError(error.message);
      throw error;
    }
    ctx.io.stdout.write(`Engram inspector: ${server.url}\n`);
    ctx.io.stderr.write("open the URL above (it holds this run's session token); stop with Ctrl-C\n");
    if (values["allow-remote"] || allowedHosts.length > 0) {
      ctx.io.stderr.write(
        `answering Host names ${server.hostNames.join(", ")}; add others with --allowed-hosts\n`,
      );
    }
    await stopped(ctx.signal);
    await server.close();
    return server.origin;
  });
  return respond(values.json, { server: "ui", origin: served, stopped: true }, () => "");
}
