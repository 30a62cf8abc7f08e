import type { SkillBody, SkillStep } from "./skill-schemas.js";

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Where in the text a tool is named ("check availability" or "check_availability"), or -1. */
function mention(text: string, tool: string): number {
  const said = words(text);
  const name = words(tool.replace(/([a-z])([A-Z])/g, "$1 $2"));
  if (name.length === 0) return -1;
  for (let i = 0; i + name.length <= said.length; i++) {
    if (name.every((w, j) => said[i + j] === w)) return i;
  }
  return -1;
}

/**
 * The offline reading of a correction: a tool named with "first" moves to the front, "A before B" puts A
 * right before B (a known tool not yet among the steps is added), and the correction itself is kept as
 * the first pitfall, so a model reading the skill sees it even when no rule applied.
 */
export function reviseOffline(skill: SkillBody, correction: string, tools: ReadonlySet<string>): SkillBody {
  const said = words(correction);
  const named = [...new Set([...skill.steps.map((s) => s.tool), ...tools])]
    .map((tool) => ({ tool, at: mention(correction, tool) }))
    .filter((m) => m.at !== -1)
    .sort((a, b) => a.at - b.at);
  let steps: SkillStep[] = [...skill.steps];
  const take = (tool: string): SkillStep => {
    const found = steps.find((s) => s.tool === tool);
    steps = steps.filter((s) => s.tool !== tool);
    return found ?? { tool, args: {}, note: null };
  };
  const before = said.indexOf("before");
  const first = named[0];
  if (before !== -1 && named.length >= 2) {
    const mover = named.filter((m) => m.at < before).at(-1);
    const anchor = named.find((m) => m.at > before);
    if (mover && anchor) {
      const step = take(mover.tool);
      const at = steps.findIndex((s) => s.tool === anchor.tool);
      steps.splice(at === -1 ? 0 : at, 0, step);
    }
  } else if (first && (said.includes("first") || said.includes("always"))) {
    const step = take(first.tool);
    steps.unshift(step);
  }
  const note = `Correction: ${correction.trim()}`;
  return { ...skill, steps, pitfalls: [note, ...skill.pitfalls.filter((p) => p !== note)].slice(0, 20) };
}
