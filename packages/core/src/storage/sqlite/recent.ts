/** Sets a key in a map kept as a least-recently-set list of at most `max` entries (oldest dropped). */
export function setRecent<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value as K);
  map.set(key, value);
}
