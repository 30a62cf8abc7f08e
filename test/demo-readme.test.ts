import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
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

describe("the examples", () => {
  const examples = readdirSync(join(ROOT, "examples"), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

  it.each(examples)("%s has a README with the command that runs it and what it prints", (name) => {
    const dir = join(ROOT, "examples", name);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      name: string;
      scripts?: Record<string, string>;
    };
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    // Either `pnpm --filter <package> start`, or a root script that runs the example's main file.
    const shortcut = Object.entries(root.scripts).find(([, script]) => script.includes(`examples/${name}/`));
    const commands = [`pnpm --filter ${pkg.name} start`, ...(shortcut ? [`pnpm ${shortcut[0]}`] : [])];
    expect(pkg.scripts?.start).toBeDefined();
    expect(commands.some((command) => readme.includes(command))).toBe(true);
    expect(readme).toMatch(/```text\n/);
  });
});
