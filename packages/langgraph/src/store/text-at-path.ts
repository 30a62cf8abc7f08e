/** Splits a LangGraph field path: `a.b[0].c` -> `["a", "b", "[0]", "c"]`. */
function tokens(path: string): string[] {
  return path.match(/\[[^\]]*\]|[^.[\]]+/g) ?? [];
}

function leaf(value: unknown): string[] {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return [String(value)];
  if (value === null || value === undefined) return [];
  return [JSON.stringify(value)];
}

function walk(value: unknown, parts: readonly string[], pos: number): string[] {
  if (pos >= parts.length) return leaf(value);
  const part = parts[pos] as string;
  if (part.startsWith("[")) {
    if (!Array.isArray(value)) return [];
    const index = part.slice(1, -1);
    if (index === "*") return value.flatMap((v) => walk(v, parts, pos + 1));
    const n = Number.parseInt(index, 10);
    const at = n < 0 ? value.length + n : n;
    return Number.isNaN(n) || at < 0 || at >= value.length ? [] : walk(value[at], parts, pos + 1);
  }
  if (typeof value !== "object" || value === null) return [];
  if (part === "*") return Object.values(value).flatMap((v) => walk(v, parts, pos + 1));
  return part in value ? walk((value as Record<string, unknown>)[part], parts, pos + 1) : [];
}

/**
 * The texts at a field path of an item value, as LangGraph's stores index them: `$` is the whole value,
 * `a.b` a nested field, `a[0]` / `a[-1]` / `a[*]` array elements, `*` every field. Non-text leaves become
 * their JSON.
 */
export function textAtPath(value: Record<string, unknown>, path: string): string[] {
  if (path === "$") return [JSON.stringify(value)];
  return walk(value, tokens(path), 0);
}
