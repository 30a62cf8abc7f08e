import { oneLine, respond } from "../cli-output.js";
import { parseCommandArgs, READONLY_OPTION } from "../command-args.js";
import { withEngram } from "../open-engram.js";
import type { CommandContext } from "./command.js";

export async function runUsers(args: readonly string[], ctx: CommandContext) {
  const { values } = parseCommandArgs(args, READONLY_OPTION, { names: [] });
  const users = await withEngram(values, ctx.env, { mustExist: true }, (engram) => engram.users());
  return respond(values.json, { users }, () =>
    // One id a line, even an id stored with a newline in it before ids were checked for control characters.
    users.length === 0 ? "no users: nothing is stored" : users.map(oneLine).join("\n"),
  );
}
