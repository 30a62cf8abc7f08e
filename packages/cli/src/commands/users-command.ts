import { respond } from "../cli-output.js";
import { parseCommandArgs, READONLY_OPTION } from "../command-args.js";
import { withEngram } from "../open-engram.js";
import type { Command, CommandContext } from "./command.js";

async function runUsers(args: readonly string[], ctx: CommandContext) {
  const { values } = parseCommandArgs(args, READONLY_OPTION, { names: [] });
  const users = await withEngram(values, ctx.env, { mustExist: true }, (engram) => engram.users());
  return respond(values.json, { users }, () =>
    users.length === 0 ? "no users: nothing is stored" : users.join("\n"),
  );
}

export const usersCommand: Command = {
  name: "users",
  usage: "",
  summary: "the ids of the users with stored memory, one a line",
  details: ['--json prints {"users": ["u1", ...]}.'],
  run: runUsers,
};
