import { cubeKey, parseCubeKey, type Scope, type StoragePort } from "@engram/core";

/**
 * The namespaces a user's items live in, kept in the user's key-value space: written in the same batch as
 * the item, so a namespace with items is always listed. Emptied namespaces stay registered (a delete racing
 * a put must not unlist a live namespace); readers skip them by counting.
 */
export const REGISTRY_NS: readonly string[] = ["langgraph", "store", "namespaces"];

export function registryEntry(namespace: readonly string[]) {
  return { namespace: REGISTRY_NS, key: cubeKey(namespace), value: "{}" };
}

export async function registeredNamespaces(storage: StoragePort, scope: Scope): Promise<string[][]> {
  const entries = await storage.kvList(scope, { prefix: REGISTRY_NS });
  return entries.map((e) => parseCubeKey(e.key));
}

/** Registered namespaces that still hold items. */
export async function liveNamespaces(storage: StoragePort, scope: Scope): Promise<string[][]> {
  const all = await registeredNamespaces(storage, scope);
  const counts = await Promise.all(
    all.map((ns) => storage.count(scope, { kinds: ["item"], cubes: [ns], current: true })),
  );
  return all.filter((_, i) => (counts[i] ?? 0) > 0);
}

export function hasPrefix(namespace: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= namespace.length && prefix.every((label, i) => namespace[i] === label);
}
