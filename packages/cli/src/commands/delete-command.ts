import { respond } from "../cli-output.js";
import { parseCommandArgs, requireFlag } from "../command-args.js";
import { withEngram } from "../open-engram.js";
import type { CommandContext } from "./command.js";

export async function runDelete(args: readonly string[], ctx: CommandContext) {
  const { values, positionals } = parseCommandArgs(args, { user: { type: "string" } }, { names: ["ID"] });
  const userId = requireFlag(values.user, "user", "U (whose memory it is)");
  const id = positionals[0] as string;
  await withEngram(values, ctx.env, { mustExist: true }, (engram) => engram.memories.delete({ userId, id }));
  return respond(values.json, { deleted: id, userId }, () => `deleted ${id} of user ${userId}`);
}
