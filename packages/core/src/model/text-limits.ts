import type { z } from "zod";

/**
 * The most UTF-8 bytes one message (or any text Engram stores and embeds) may hold: 1 MiB, about 250k
 * tokens, more than any model's context window takes in one turn. Below it, costs grow linearly (the
 * embedder sees bounded windows, see `embedderFromModel`); above it, a text is refused before any work.
 */
export const MAX_MESSAGE_BYTES = 1_048_576;

/** UTF-8 length of `text` without encoding it (a UTF-16 unit is 1 to 3 bytes; a surrogate pair is 4). */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

const grouped = (n: number) => n.toLocaleString("en-US");

/** The message for a text over the limit: its size, the limit, and what to do instead. */
export function oversizeMessage(bytes: number): string {
  return (
    `${grouped(bytes)} bytes of UTF-8 text, over the limit of ${grouped(MAX_MESSAGE_BYTES)} ` +
    "bytes (MAX_MESSAGE_BYTES, 1 MiB); split it into several messages or store a summary"
  );
}

/**
 * A zod refinement for a text field: refuses more than MAX_MESSAGE_BYTES. The issue carries `limit` and
 * `bytes`, which `parseInput` copies into the ValidationError's details.
 */
export function withinTextLimit(text: string, ctx: z.RefinementCtx): void {
  // Counting takes a few milliseconds even for megabytes, so the size in the error is exact.
  const bytes = utf8Length(text);
  if (bytes <= MAX_MESSAGE_BYTES) return;
  ctx.addIssue({
    code: "custom",
    message: oversizeMessage(bytes),
    params: { limit: MAX_MESSAGE_BYTES, bytes },
    abort: true,
  });
}
