export function hasPrefix(namespace: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= namespace.length && prefix.every((label, i) => namespace[i] === label);
}
