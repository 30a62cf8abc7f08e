import { ValidationError } from "@engram/core";
import { idString } from "@engram/core/integration";
import { z } from "zod";

export const storeOptionsSchema = z
  .object({
    /**
     * The namespace label that names the Engram user owning an item, e.g. 1 for `["memories", userId]`.
     * Then `engram.forget({ userId })` erases the user's items too.
     */
    userIdAt: z.number().int().min(0).max(15).optional(),
    /** One Engram user owning every namespace (a shared store). Default `langgraph` when no userIdAt. */
    userId: idString.optional(),
    /** Value fields embedded and searched, as LangGraph paths (`"text"`, `"a.b"`, `"tags[*]"`). Default `["$"]`: the whole value. */
    fields: z.array(z.string().min(1)).min(1).default(["$"]),
  })
  .refine((o) => o.userIdAt === undefined || o.userId === undefined, {
    message: "pass either userIdAt (the namespace names its user) or userId (one owner), not both",
    path: ["userIdAt"],
  });
export type StoreOptions = z.output<typeof storeOptionsSchema>;

const DEFAULT_OWNER = "langgraph";

/** The Engram user who owns a namespace's items; null when the namespace is too short to name one. */
export function namespaceOwner(options: StoreOptions, namespace: readonly string[]): string | null {
  if (options.userIdAt === undefined) return options.userId ?? DEFAULT_OWNER;
  return namespace[options.userIdAt] ?? null;
}

/** Like namespaceOwner, for a put: a namespace that names no user cannot hold items. */
export function requireOwner(options: StoreOptions, namespace: readonly string[]): string {
  const label = namespaceOwner(options, namespace);
  if (label === null) {
    throw new ValidationError(
      `EngramStore: namespace ${JSON.stringify(namespace)} has no label at position ${options.userIdAt} to name ` +
        `its user; use a namespace such as ["memories", "<userId>"] or change userIdAt`,
    );
  }
  return label;
}

/** The owner a namespace prefix pins, or null when items of several users can match it. */
export function prefixOwner(options: StoreOptions, prefix: readonly (string | "*")[]): string | null {
  if (options.userIdAt === undefined) return options.userId ?? DEFAULT_OWNER;
  const label = prefix[options.userIdAt];
  return label === undefined || label === "*" ? null : label;
}
