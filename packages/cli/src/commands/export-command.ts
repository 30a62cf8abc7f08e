import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { InputError } from "../cli-error.js";
import { renderOutput, respond } from "../cli-output.js";
import { parseCommandArgs, READONLY_OPTION, requireFlag } from "../command-args.js";
import { requireKnownUser, storeTarget, withEngram } from "../open-engram.js";
import { checkExportTarget, writeFileAtomically } from "../write-export-file.js";
import type { CommandContext } from "./command.js";

async function writeDump(path: string, dump: unknown): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true });
    writeFileAtomically(path, renderOutput({ json: dump }));
  } catch (error) {
    throw new InputError(`cannot write ${path}: ${(error as Error).message}`);
  }
}

export async function runExport(args: readonly string[], ctx: CommandContext) {
  const { values } = parseCommandArgs(
    args,
    { user: { type: "string" }, out: { type: "string" }, force: { type: "boolean" }, ...READONLY_OPTION },
    { names: [] },
  );
  const userId = requireFlag(values.user, "user", "U (whose memory to export)");
  // Checked before the store is opened, and again just before writing (the file may appear meanwhile).
  const target = storeTarget(values, ctx.env);
  const storePath = target.kind === "sqlite" ? target.path : undefined;
  const force = values.force === true;
  if (values.out !== undefined) checkExportTarget(values.out, storePath, force);
  const dump = await withEngram(values, ctx.env, { mustExist: true }, async (engram) => {
    await requireKnownUser(engram, userId);
    return engram.export({ userId });
  });
  // Without --out the dump itself is the output, with or without --json.
  if (values.out === undefined) return { json: dump };
  checkExportTarget(values.out, storePath, force);
  await writeDump(values.out, dump);
  const summary = { userId, out: values.out, memories: dump.memories.length, history: dump.history.length };
  return respond(
    values.json,
    summary,
    () => `exported ${summary.memories} memories of user ${userId} to ${values.out}`,
  );
}
