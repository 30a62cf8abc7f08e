import { formatFields, respond } from "../cli-output.js";
import { parseCommandArgs, requireFlag } from "../command-args.js";
import { withEngram } from "../open-engram.js";
import type { CommandContext } from "./command.js";

export async function runFeedback(args: readonly string[], ctx: CommandContext) {
  const { values, positionals } = parseCommandArgs(args, { user: { type: "string" } }, { names: ["TEXT"] });
  const userId = requireFlag(values.user, "user", "U (whose memory to correct)");
  const text = positionals[0] as string;
  const result = await withEngram(
    values,
    ctx.env,
    { mustExist: false, flush: true, warnFailing: { userId, stderr: ctx.io.stderr } },
    (engram) => engram.feedback({ userId, text }),
  );
  return respond(values.json, { userId, ...result }, () =>
    formatFields([
      ["feedback", result.feedbackId],
      ["new facts", result.created.join(" ") || "-"],
      ["superseded", result.superseded.join(" ") || "-"],
      ["rewritten", result.edited.join(" ") || "-"],
      ["mentions", result.affected.join(" ") || "-"],
    ]),
  );
}
