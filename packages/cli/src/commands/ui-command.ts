import { UsageError } from "../cli-error.js";
import { respond } from "../cli-output.js";
import { integerFlag, parseCommandArgs, READONLY_OPTION } from "../command-args.js";
import { withEngram } from "../open-engram.js";
import { HttpError } from "../ui/http-error.js";
import type { startUiServer } from "../ui/ui-server.js";
import type { CommandContext } from "./command.js";

const UI_OPTIONS = {
  host: { type: "string" },
  port: { type: "string" },
  "allow-remote": { type: "boolean" },
  ...READONLY_OPTION,
} as const;

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
  const served = await withEngram(values, ctx.env, { mustExist: true }, async (engram) => {
    let server: Awaited<ReturnType<typeof startUiServer>>;
    try {
      const { startUiServer } = await import("../ui/ui-server.js");
      server = await startUiServer({ engram, host: values.host, port, allowRemote: values["allow-remote"] });
    } catch (error) {
      // A refused address is a usage error (exit 2), as for every other bad flag.
      if (error instanceof HttpError) throw new UsageError(error.message);
      throw error;
    }
    ctx.io.stdout.write(`Engram inspector: ${server.url}\n`);
    ctx.io.stderr.write("open the URL above (it holds this run's session token); stop with Ctrl-C\n");
    await stopped(ctx.signal);
    await server.close();
    return server.origin;
  });
  return respond(values.json, { server: "ui", origin: served, stopped: true }, () => "");
}
