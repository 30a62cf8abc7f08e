import type { ForgetReport } from "@engram/core";
import { oneLine, respond } from "../cli-output.js";
import { parseCommandArgs, requireFlag } from "../command-args.js";
import { withEngram } from "../open-engram.js";
import type { CommandContext } from "./command.js";

// The id on one line: forget also takes an id stored with a newline in it, to erase such a user.
function renderForget(userId: string, r: ForgetReport): string {
  return (
    `forgot user ${oneLine(userId)}: removed ${r.memories} memories, ${r.history} history rows, ` +
    `${r.edges} edges, ${r.kv} key-value entries, ${r.jobs} jobs`
  );
}

export async function runForget(args: readonly string[], ctx: CommandContext) {
  const { values } = parseCommandArgs(args, { user: { type: "string" } }, { names: [] });
  const userId = requireFlag(values.user, "user", "U (whose memory to erase)");
  const removed = await withEngram(values, ctx.env, { mustExist: true }, (engram) =>
    engram.forget({ userId }),
  );
  return respond(values.json, { userId, removed }, () => renderForget(userId, removed));
}
