import type { TextStats } from "../storage-port.js";

/** Mean, deviation and lowest score of the best `k` scores over all ranges; null without any. */
export function topStats(parts: readonly Float64Array[], k: number): TextStats | null {
  const total = parts.reduce((n, p) => n + p.length, 0);
  if (total === 0) return null;
  let all: Float64Array;
  if (parts.length === 1) all = parts[0] as Float64Array;
  else {
    all = new Float64Array(total);
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
  }
  const top = total > k ? bestOf(all, k) : all;
  let sum = 0;
  let floor = Number.POSITIVE_INFINITY;
  for (const s of top) {
    sum += s;
    if (s < floor) floor = s;
  }
  const mean = sum / top.length;
  let sq = 0;
  for (const s of top) sq += (s - mean) ** 2;
  return { mean, sd: Math.sqrt(sq / top.length), count: top.length, floor };
}

/** The k largest values (in no order), by quickselect on a copy. */
function bestOf(values: Float64Array, k: number): Float64Array {
  const a = Float64Array.from(values);
  // Partition so that a[lo..] holds the k largest: select the (n - k)th smallest.
  const target = a.length - k;
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        const t = a[i] as number;
        a[i] = a[j] as number;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else break;
  }
  return a.subarray(target);
}
