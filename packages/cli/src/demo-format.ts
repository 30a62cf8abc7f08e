// Small formatting helpers shared by the demo's sections.
import { type Engram, EngramError, type MemoryEdge, type MemoryRecord } from "@engram/core";
import type { CliStream } from "./cli-io.js";
import { terminalText, truncate } from "./cli-output.js";

/** Prints one line of the demo, with control characters shown escaped as the CLI's output is (terminalText). */
export function say(line: string, out: CliStream = process.stdout): void {
  out.write(`${terminalText(line)}\n`);
}

export function section(title: string): void {
  say(`\n== ${title} ${"=".repeat(Math.max(0, 100 - title.length))}`);
}

/** Ids are random; their first 12 characters are enough to tell them apart on screen. */
export function shortId(id: string): string {
  return id.slice(0, 12);
}

/** `2026-02-11` from an ISO time; `-` for none. */
export function day(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 10) : "-";
}

export function clip(text: string, max = 90): string {
  return truncate(text, max);
}

export function quote(text: string, max = 90): string {
  return `"${clip(text, max)}"`;
}

export function seconds(startedMs: number): string {
  return `${((performance.now() - startedMs) / 1000).toFixed(1)} s`;
}

/** A memory of the user, or undefined when it is gone (deleted or never stored). */
export async function findMemory(
  engram: Engram,
  userId: string,
  id: string,
): Promise<MemoryRecord | undefined> {
  try {
    return await engram.memories.get({ userId, id });
  } catch (error) {
    if (EngramError.isInstance(error) && error.code === "NOT_FOUND") return undefined;
    throw error;
  }
}

/** The `supersedes` edges (new fact -> old fact) among these facts, in the facts' order. */
export async function supersedesEdges(
  engram: Engram,
  userId: string,
  facts: readonly MemoryRecord[],
): Promise<MemoryEdge[]> {
  const all = await Promise.all(facts.map((f) => engram.memories.edges({ userId, id: f.id })));
  return all
    .flat()
    .filter(
      (e, i, list) =>
        e.type === "supersedes" &&
        facts.some((f) => f.id === e.from) &&
        list.findIndex((x) => x.from === e.from && x.to === e.to && x.type === e.type) === i,
    );
}
