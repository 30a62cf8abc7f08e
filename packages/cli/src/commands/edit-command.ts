import { respond } from "../cli-output.js";
import { parseCommandArgs, requireFlag } from "../command-args.js";
import { withEngram } from "../open-engram.js";
import type { CommandContext } from "./command.js";

export async function runEdit(args: readonly string[], ctx: CommandContext) {
  const { values, positionals } = parseCommandArgs(
    args,
    { user: { type: "string" }, text: { type: "string" } },
    { names: ["ID"] },
  );
  const userId = requireFlag(values.user, "user", "U (whose memory it is)");
  const text = requireFlag(values.text, "text", "T (the new text)");
  const id = positionals[0] as string;
  const memory = await withEngram(
    values,
    ctx.env,
    { mustExist: true, warnFailing: { userId, stderr: ctx.io.stderr } },
    (engram) => engram.memories.update({ userId, id, text }),
  );
  return respond(values.json, { memory }, () => `updated ${memory.id} to version ${memory.version}`);
}
