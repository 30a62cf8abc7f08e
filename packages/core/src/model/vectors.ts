// Vector arithmetic, once, for the tiers, the query path, skills, the embedder and the backends.

/** The dot product over the shorter of the two: the cosine similarity of two unit vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

/** The cosine similarity of two vectors of any length; 0 when either is all zeros. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

/** Scales `out` in place to unit length (all zeros stays all zeros), and returns it. */
function toUnit(out: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < out.length; i++) norm += (out[i] as number) ** 2;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / norm;
  return out;
}

/** A unit-length copy of `values`. */
export function normalize(values: ArrayLike<number>): Float32Array {
  return toUnit(Float32Array.from(values));
}

/** The unit-length mean of the vectors present; null when none is. */
export function normalizedMean(vectors: readonly (Float32Array | undefined)[]): Float32Array | null {
  const present = vectors.filter((v): v is Float32Array => v !== undefined);
  const first = present[0];
  if (!first) return null;
  const out = new Float32Array(first.length);
  for (const v of present)
    for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) + (v[i] as number);
  return toUnit(out);
}
