import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../scripts/node-runtime.mjs";

// The README quotes `pnpm demo`; the demo's ids come from a counter and its clock from the conversation,
// so its output is the same on every run and the excerpt can be checked line for line.
function readmeExcerpt(): string[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const block = /An excerpt:\n\n```text\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error("README.md has no demo excerpt after 'An excerpt:'");
  return block.split("\n").filter((line) => line !== "" && line !== "...");
}

describe("the README's demo excerpt", () => {
  it("is what pnpm demo prints, line for line and in order", () => {
    const printed = execFileSync("pnpm", ["-s", "demo"], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      shell: process.platform === "win32",
    }).split("\n");
    let at = 0;
    const missing: string[] = [];
    for (const line of readmeExcerpt()) {
      const found = printed.indexOf(line, at);
      if (found < 0) missing.push(line);
      else at = found + 1;
    }
    expect(missing).toEqual([]);
  }, 300_000);
});
