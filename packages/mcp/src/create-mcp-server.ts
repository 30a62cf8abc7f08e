import { type Engram, ValidationError } from "@engram/core";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { inCallOrder } from "./call-order.js";
import { registerMemoryPrompts } from "./memory-prompts.js";
import { registerMemoryResources } from "./memory-resources.js";
import { registerReadTools } from "./read-tools.js";
import { registerSkillTools } from "./skill-tools.js";
import { idString } from "./tool-schemas.js";
import type { UserScope } from "./user-scope.js";
import { registerWriteTools } from "./write-tools.js";

export const SERVER_NAME = "engram";
export const SERVER_VERSION = "0.1.0";

export interface EngramMcpServerOptions {
  /** The memory engine; the caller opens and closes it. One engine serves every user. */
  readonly engram: Engram;
  /**
   * The user for calls that pass no `user_id` (single-user desktop setups). Without it every call must
   * name its user.
   */
  readonly defaultUserId?: string | undefined;
  /**
   * The only users calls may name (a scoped caller); others are refused with FORBIDDEN, and resource
   * listings show these users. Default: every user.
   */
  readonly allowedUsers?: readonly string[] | undefined;
}

const INSTRUCTIONS =
  "Long-term memory of the user. Before answering, call retrieve_memory with the user's message; after " +
  "answering, call add_memory with the user's message and your answer. Use give_feedback when the user " +
  "corrects something about themselves, and forget_user only when they ask to be forgotten. After a task " +
  "that used tools, call record_trace: recurring tasks become skills that retrieve_memory shows you.";

function checkDefaultUser(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parsed = idString("defaultUserId").safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ValidationError(
    `createEngramMcpServer: defaultUserId ${parsed.error.issues[0]?.message ?? "is invalid"}; ` +
      'pass a user id such as "me", or leave it out so every call names its user',
    { details: { path: "defaultUserId" } },
  );
}

const allowedUsersSchema = z
  .array(idString("each allowed user"), { error: "expected allowedUsers as an array of user ids" })
  .min(1, "allowedUsers must name at least one user; leave it out to allow every user");

function checkAllowedUsers(value: readonly string[] | undefined): readonly string[] | undefined {
  if (value === undefined) return undefined;
  const parsed = allowedUsersSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ValidationError(
    `createEngramMcpServer: ${parsed.error.issues[0]?.message ?? "allowedUsers is invalid"}`,
    { details: { path: "allowedUsers" } },
  );
}

/** An MCP server with Engram's memory tools and resources, ready to connect to any transport. */
export function createEngramMcpServer(options: EngramMcpServerOptions): McpServer {
  const scope: UserScope = {
    defaultUserId: checkDefaultUser(options.defaultUserId),
    allowedUsers: checkAllowedUsers(options.allowedUsers),
  };
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} } },
  );
  // One user's calls in the order they arrive: a read right behind a write sees it.
  const engram = inCallOrder(options.engram);
  registerReadTools(server, engram, scope);
  registerWriteTools(server, engram, scope);
  registerSkillTools(server, engram, scope);
  registerMemoryResources(server, engram, scope);
  registerMemoryPrompts(server, engram, scope);
  return server;
}
