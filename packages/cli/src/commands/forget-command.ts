import type { ForgetReport } from "@engram/core";
import { respond } from "../cli-output.js";
import { parseCommandArgs, requireFlag } from "../command-args.js";
import { withEngram } from "../open-engram.js";
import type { Command, CommandContext } from "./command.js";

function renderForget(userId: string, r: ForgetReport): string {
  return (
    `forgot user ${userId}: removed ${r.memories} memories, ${r.history} history rows, ` +
    `${r.edges} edges, ${r.kv} key-value entries, ${r.jobs} jobs`
  );
}

async function runForget(args: readonly string[], ctx: CommandContext) {
  const { values } = parseCommandArgs(args, { user: { type: "string" } }, { names: [] });
  const userId = requireFlag(values.user, "user", "U (whose memory to erase)");
  const removed = await withEngram(values, ctx.env, { mustExist: true }, (engram) =>
    engram.forget({ userId }),
  );
  return respond(values.json, { userId, removed }, () => renderForget(userId, removed));
}

export const forgetCommand: Command = {
  name: "forget",
  usage: "--user U",
  summary: "erase everything stored for a user, including the deleted bytes on disk",
  details: [
    "Forgetting a user with nothing stored is not an error; the counts are then 0.",
    '--json prints {"userId", "removed": {"memories", "history", "edges", "kv", "jobs"}}.',
  ],
  run: runForget,
};
