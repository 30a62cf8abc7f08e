import type { Engram } from "@engram/core";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { memoryView } from "./memory-view.js";
import { guarded, toolResult, userOf } from "./tool-result.js";
import {
  addMemoryShape,
  deleteMemoryShape,
  feedbackShape,
  forgetUserShape,
  updateMemoryShape,
} from "./tool-schemas.js";
import type { UserScope } from "./user-scope.js";

const WRITE = { readOnlyHint: false, openWorldHint: false } as const;

/** Tools that change memory: add_memory, update_memory, delete_memory, give_feedback, forget_user. */
export function registerWriteTools(server: McpServer, engram: Engram, scope: UserScope): void {
  server.registerTool(
    "add_memory",
    {
      title: "Add memory",
      description:
        "Call after each exchange: stores what the user said and what you answered, so later " +
        "conversations can recall it. Searchable as soon as this returns.",
      inputSchema: addMemoryShape,
      annotations: { ...WRITE, destructiveHint: false, idempotentHint: false },
    },
    (args) =>
      guarded(async () => {
        const userId = userOf(args, scope);
        const metadata = args.metadata ? { metadata: args.metadata } : {};
        const messages = [
          { role: "user" as const, content: args.user_input, ...metadata },
          ...(args.agent_response
            ? [{ role: "assistant" as const, content: args.agent_response, ...metadata }]
            : []),
        ];
        const r = await engram.add({
          userId,
          messages,
          ...(args.timestamp ? { at: args.timestamp } : {}),
          ...(args.session_id ? { sessionId: args.session_id } : {}),
        });
        return toolResult(
          { user_id: userId, ids: r.ids, status: r.status },
          `Stored ${r.ids.length} message(s) for user ${userId}: ${r.ids.join(", ")}.`,
        );
      }),
  );

  server.registerTool(
    "update_memory",
    {
      title: "Update memory",
      description:
        "Replace the text of one memory (find its id with search_memory or get_user_profile). The previous " +
        "text is kept in the memory's history.",
      inputSchema: updateMemoryShape,
      annotations: { ...WRITE, destructiveHint: false, idempotentHint: true },
    },
    (args) =>
      guarded(async () => {
        const userId = userOf(args, scope);
        const m = await engram.memories.update({ userId, id: args.memory_id, text: args.text });
        return toolResult({ user_id: userId, memory: { ...memoryView(m), version: m.version } });
      }),
  );

  server.registerTool(
    "delete_memory",
    {
      title: "Delete memory",
      description:
        "Delete one memory for good, with its history (find its id with search_memory). Use when the user " +
        "asks you to forget one specific thing.",
      inputSchema: deleteMemoryShape,
      annotations: { ...WRITE, destructiveHint: true, idempotentHint: false },
    },
    (args) =>
      guarded(async () => {
        const userId = userOf(args, scope);
        await engram.memories.delete({ userId, id: args.memory_id });
        return toolResult({ user_id: userId, deleted: args.memory_id }, `Deleted memory ${args.memory_id}.`);
      }),
  );

  server.registerTool(
    "give_feedback",
    {
      title: "Correct memory",
      description:
        'Pass on a correction the user made about themselves ("actually I moved to Berlin"): facts it ' +
        "contradicts are superseded (kept in history), new facts are stored.",
      inputSchema: feedbackShape,
      annotations: { ...WRITE, destructiveHint: false, idempotentHint: false },
    },
    (args) =>
      guarded(async () => {
        const userId = userOf(args, scope);
        const r = await engram.feedback({ userId, text: args.text });
        return toolResult({
          user_id: userId,
          feedback_id: r.feedbackId,
          created: r.created,
          superseded: r.superseded,
          edited: r.edited,
          affected: r.affected,
        });
      }),
  );

  server.registerTool(
    "forget_user",
    {
      title: "Forget user",
      description:
        "Erase everything stored about the user: every memory, its history and vectors, and their bytes on " +
        "disk. Only when the user explicitly asks to be forgotten; pass confirm: true. Cannot be undone.",
      inputSchema: forgetUserShape,
      annotations: { ...WRITE, destructiveHint: true, idempotentHint: true },
    },
    (args) =>
      guarded(async () => {
        const userId = userOf(args, scope);
        const { erasure, ...removed } = await engram.forget({ userId });
        const onDisk =
          erasure.state === "erased" ? " Erased from disk." : ` Not yet erased from disk: ${erasure.reason}.`;
        return toolResult(
          { user_id: userId, removed, erasure },
          `Forgot user ${userId}: removed ${removed.memories} memories.${onDisk}`,
        );
      }),
  );
}
