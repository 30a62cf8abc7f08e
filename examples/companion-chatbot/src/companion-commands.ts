import type { CompanionMemory, MemoryOverview } from "./companion-memory.js";

export const COMMAND_HELP =
  "Commands: /memory (what I know about you), /forget (erase everything about you), " +
  "/correct <text> (fix something I got wrong), /quit";

export type CommandOutcome = { readonly reply: string; readonly quit?: boolean; readonly forgot?: boolean };

function clip(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

export function renderOverview(o: MemoryOverview): string {
  if (o.turns === 0 && o.facts.length === 0 && o.profile.length === 0) {
    return "I don't remember anything about you yet.";
  }
  const lines = ["What I remember about you:"];
  if (o.profile.length) {
    lines.push("Profile:", ...o.profile.map((t) => `  - ${t.key}: ${t.value} (confidence ${t.confidence})`));
  }
  if (o.facts.length) lines.push("Facts:", ...o.facts.map((f) => `  - ${clip(f.text)}`));
  if (o.segments.length) lines.push("Recent topics:", ...o.segments.map((s) => `  - ${clip(s.text)}`));
  if (o.recent.length) lines.push("Lately you told me:", ...o.recent.map((m) => `  - ${clip(m.text)}`));
  lines.push(`Conversation messages stored: ${o.turns}`);
  return lines.join("\n");
}

/** Runs one slash command; `line` starts with "/". */
export async function runCommand(line: string, memory: CompanionMemory): Promise<CommandOutcome> {
  const [name = "", ...rest] = line.slice(1).split(/\s+/);
  const argument = rest.join(" ").trim();
  switch (name.toLowerCase()) {
    case "quit":
    case "exit":
      return { reply: "Bye! Talk to you next time.", quit: true };
    case "memory":
      return { reply: renderOverview(await memory.overview()) };
    case "forget": {
      const removed = await memory.forget();
      return {
        reply: `Done: I forgot everything about you (${removed.memories} memories erased, from disk too).`,
        forgot: true,
      };
    }
    case "correct": {
      if (!argument) return { reply: "Usage: /correct <what is right>, e.g. /correct I moved to Berlin" };
      const r = await memory.correct(argument);
      return {
        reply:
          `Thanks, noted. ${r.superseded.length} old fact(s) replaced, ${r.created.length} new fact(s) stored` +
          (r.affected.length ? `; ${r.affected.length} earlier message(s) mention it.` : "."),
      };
    }
    case "help":
      return { reply: COMMAND_HELP };
    default:
      return { reply: `Unknown command /${name}. ${COMMAND_HELP}` };
  }
}
