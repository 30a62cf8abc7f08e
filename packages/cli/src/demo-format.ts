// Small formatting helpers shared by the demo's sections.
import { truncate } from "./cli-output.js";

export function section(title: string): void {
  console.log(`\n== ${title} ${"=".repeat(Math.max(0, 100 - title.length))}`);
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
