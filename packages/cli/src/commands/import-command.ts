import { respond } from "../cli-output.js";
import { parseCommandArgs } from "../command-args.js";
import { withEngram } from "../open-engram.js";
import { parseJsonFile, readTextFile } from "../read-text-file.js";
import type { CommandContext } from "./command.js";

export async function runImport(args: readonly string[], ctx: CommandContext) {
  const { values, positionals } = parseCommandArgs(args, {}, { names: ["FILE"] });
  const path = positionals[0] as string;
  const dump = parseJsonFile(await readTextFile(path), path);
  const result = await withEngram(values, ctx.env, { mustExist: false, flush: true }, (engram) =>
    engram.import(dump),
  );
  return respond(
    values.json,
    result,
    () =>
      `imported ${result.memories} memories for user ${result.userId}` +
      (result.reembedded > 0 ? ` (${result.reembedded} re-embedded)` : ""),
  );
}
