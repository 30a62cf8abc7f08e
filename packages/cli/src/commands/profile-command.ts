import type { ProfileTrait } from "@engram/core";
import { formatTable, respond, shortTime } from "../cli-output.js";
import { parseCommandArgs, READONLY_OPTION, requireFlag } from "../command-args.js";
import { requireKnownUser, withEngram } from "../open-engram.js";
import type { CommandContext } from "./command.js";

function renderProfile(userId: string, traits: readonly ProfileTrait[]): string {
  if (traits.length === 0) return `no profile yet for ${userId} (facts appear as segments are promoted)`;
  return formatTable(
    ["trait", "value", "confidence", "since", "evidence"],
    traits.map((t) => [t.key, t.value, t.confidence.toFixed(2), shortTime(t.since), t.evidence.join(" ")]),
  );
}

export async function runProfile(args: readonly string[], ctx: CommandContext) {
  const { values } = parseCommandArgs(
    args,
    { user: { type: "string" }, at: { type: "string" }, ...READONLY_OPTION },
    { names: [] },
  );
  const userId = requireFlag(values.user, "user", "U (whose profile to show)");
  const traits = await withEngram(
    values,
    ctx.env,
    { mustExist: true, warnFailing: { userId, stderr: ctx.io.stderr } },
    async (engram) => {
      await requireKnownUser(engram, userId);
      return engram.profile({ userId, ...(values.at ? { at: values.at } : {}) });
    },
  );
  return respond(values.json, { userId, profile: traits }, () => renderProfile(userId, traits));
}
