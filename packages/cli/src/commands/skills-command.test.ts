import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngram, type Skill } from "@engram/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "../run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "engram-cli-skills-"));
const db = join(dir, "s.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => runCliCaptured([...args, "--db", db, "--no-embed"]);
const json = async <T>(...args: string[]): Promise<T> => {
  const run = await cli(...args, "--json");
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as T;
};

beforeAll(async () => {
  // Three runs of one task, recorded through the API (the AI SDK middleware or MCP do this in use).
  const engram = await createEngram({ path: db, embedder: null, background: false });
  for (const restaurant of ["Nopa", "Zuni", "Delfina"]) {
    await engram.traces.add({
      userId: "ana",
      task: `Book a table at ${restaurant} restaurant on Friday`,
      steps: [
        { tool: "check_availability", args: { restaurant }, result: { free: true } },
        { tool: "book_table", args: { restaurant }, result: "ok" },
      ],
    });
  }
  await engram.flush();
  await engram.close();
});

describe("engram skills", () => {
  it("lists, shows, corrects (a new version, the old one in history) and deletes a skill", async () => {
    const { skills } = await json<{ userId: string; skills: Skill[] }>("skills", "--user", "ana");
    expect(skills).toHaveLength(1);
    const id = skills[0]?.id as string;
    expect(skills[0]?.steps.map((s) => s.tool)).toEqual(["check_availability", "book_table"]);
    const table = await cli("skills", "list", "--user", "ana");
    expect(table.stdout).toContain("1. check_availability(restaurant={restaurant})");
    const shown = await json<{ skill: Skill }>("skills", "show", id, "--user", "ana");
    expect(shown.skill).toMatchObject({ id, version: 1, successes: 3 });
    const fixed = await json<{ skill: Skill }>(
      "skills",
      "feedback",
      id,
      "Always check the opening hours",
      "--user",
      "ana",
    );
    expect(fixed.skill).toMatchObject({ version: 2, source: "user" });
    expect(fixed.skill.pitfalls[0]).toBe("Correction: Always check the opening hours");
    const { history } = await json<{ history: { version: number }[] }>(
      "skills",
      "history",
      id,
      "--user",
      "ana",
    );
    expect(history.map((h) => h.version)).toEqual([1, 2]);
    const { traces } = await json<{ traces: { task: string }[] }>("skills", "traces", "--user", "ana");
    expect(traces).toHaveLength(3);
    expect(await json("skills", "delete", id, "--user", "ana")).toEqual({ userId: "ana", deleted: id });
    expect((await json<{ skills: Skill[] }>("skills", "--user", "ana")).skills).toEqual([]);
  });

  it("needs exactly one of --user and --agent, and a known action", async () => {
    const neither = await cli("skills");
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain("pass either --user U");
    const bad = await cli("skills", "rewrite", "--user", "ana");
    expect(bad.stderr).toContain('unknown action "rewrite": expected one of list, show');
    const missing = await cli("skills", "show", "--user", "ana");
    expect(missing.stderr).toContain('missing ID for "skills show"');
  });
});
