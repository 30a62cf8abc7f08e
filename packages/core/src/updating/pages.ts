import type { MemoryRecord } from "../model/index.js";
import type { Page } from "../runtime/index.js";

/**
 * Groups messages (oldest first) into pages: a user message opens a page; the assistant's answers join it.
 * Consecutive user messages each open their own page; a page never spans two sessions.
 */
export function groupPages(messages: readonly MemoryRecord[]): Page[] {
  const pages: { id: string; messages: MemoryRecord[] }[] = [];
  for (const m of messages) {
    const current = pages.at(-1);
    const first = current?.messages[0];
    const joins = current && first && m.role !== "user" && first.sessionId === m.sessionId;
    if (joins) current.messages.push(m);
    else pages.push({ id: m.id, messages: [m] });
  }
  return pages;
}

export function pageText(page: Page): string {
  return page.messages
    .map((m) => (m.name ? `${m.name}: ${m.text}` : `${m.role ?? "unknown"}: ${m.text}`))
    .join("\n");
}
