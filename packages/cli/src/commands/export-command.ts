import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { InputError } from "../cli-error.js";
import { renderOutput, respond } from "../cli-output.js";
import { parseCommandArgs, READONLY_OPTION, requireFlag } from "../command-args.js";
import { requireKnownUser, withEngram } from "../open-engram.js";
import type { CommandContext } from "./command.js";

async function writeDump(path: string, dump: unknown): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, renderOutput({ json: dump }));
  } catch (error) {
    throw new InputError(`cannot write ${path}: ${(error as Error).message}`);
  }
}

export async function runExport(args: readonly string[], ctx: CommandContext) {
  const { values } = parseCommandArgs(
    args,
    { user: { type: "string" }, out: { type: "string" }, ...READONLY_OPTION },
    { names: [] },
  );
  const userId = requireFlag(values.user, "user", "U (whose memory to export)");
  const dump = await withEngram(values, ctx.env, { mustExist: true }, async (engram) => {
    await requireKnownUser(engram, userId);
    return engram.export({ userId });
  });
  // Without --out the dump itself is the output, with or without --json.
  if (values.out === undefined) return { json: dump };
  await writeDump(values.out, dump);
  const summary = { userId, out: values.out, memories: dump.memories.length, history: dump.history.length };
  return respond(
    values.json,
    summary,
    () => `exported ${summary.memories} memories of user ${userId} to ${values.out}`,
  );
}
