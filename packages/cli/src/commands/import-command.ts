import type { ImportResult } from "@engram/core";
import { respond } from "../cli-output.js";
import { parseCommandArgs } from "../command-args.js";
import { withEngram } from "../open-engram.js";
import { progressBar } from "../progress-bar.js";
import { parseJsonFile, readTextFile } from "../read-text-file.js";
import type { CommandContext } from "./command.js";

export async function runImport(args: readonly string[], ctx: CommandContext) {
  const { values, positionals } = parseCommandArgs(args, {}, { names: ["FILE"] });
  const path = positionals[0] as string;
  const dump = parseJsonFile(await readTextFile(path), path);
  // A dump made with another embedder is embedded again first: minutes for a large one, so a bar shows it.
  const bar = progressBar(ctx.io.stderr, "embed");
  let result: ImportResult;
  try {
    result = await withEngram(values, ctx.env, { mustExist: false, flush: true }, (engram) =>
      engram.import(dump, { onProgress: (p) => bar.update(p.embedded, p.total) }),
    );
  } finally {
    bar.finish();
  }
  return respond(
    values.json,
    result,
    () =>
      `imported ${result.memories} memories for user ${result.userId}` +
      (result.reembedded > 0 ? ` (${result.reembedded} re-embedded)` : ""),
  );
}
