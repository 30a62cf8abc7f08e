/**
 * The fixture collections of Qdrant's REST tests (`qdrant:tests/openapi/helpers/collection_setup.py`),
 * as data, so their recorded calls can be replayed against the double.
 */

/** The fixture most of Qdrant's tests start from (`tests/openapi/helpers/collection_setup.py`, basic). */
export const BASIC_COLLECTION = {
  vectors: { size: 4, distance: "Dot" },
  sparse_vectors: { "sparse-text": {} },
} as const;

export const BASIC_POINTS = [
  { id: 1, vector: [0.05, 0.61, 0.76, 0.74], payload: { city: "Berlin", price: 10.0 } },
  { id: 2, vector: [0.19, 0.81, 0.75, 0.11], payload: { city: ["Berlin", "London"], price: 11.0 } },
  { id: 3, vector: [0.36, 0.55, 0.47, 0.94], payload: { city: ["Berlin", "Moscow"], price: 9.5 } },
  { id: 4, vector: [0.18, 0.01, 0.85, 0.8], payload: { city: ["London", "Moscow"], price: 9 } },
  { id: 5, vector: [0.24, 0.18, 0.22, 0.44], payload: { count: 0 } },
  { id: 6, vector: [0.35, 0.08, 0.11, 0.44] },
  { id: 7, vector: [0.25, 0.98, 0.14, 0.43], payload: { city: null, price: null } },
  { id: 8, vector: [0.79, 0.53, 0.72, 0.15], payload: { city: [], price: [] } },
  { id: 9, vector: { "sparse-text": { indices: [66, 12], values: [0.5, 0.5] } } },
  {
    id: 10,
    vector: { "sparse-text": { indices: [1, 2, 3], values: [0.1, 0.2, 0.3] } },
    payload: { city: [], price: [] },
  },
];

/** The named-vector fixture (`multivec_collection_setup`), used by the tests whose file says "multivec". */
export const MULTIVEC_COLLECTION = {
  vectors: { image: { size: 4, distance: "Dot" }, text: { size: 8, distance: "Cosine" } },
  sparse_vectors: { "sparse-image": {}, "sparse-text": {} },
} as const;

const twice = (vector: number[]): number[] => [...vector, ...vector];
const dense = (id: number, image: number[], payload?: object) => ({
  id,
  vector: { image, text: twice(image) },
  ...(payload ? { payload } : {}),
});

export const MULTIVEC_POINTS = [
  dense(1, [0.05, 0.61, 0.76, 0.74], { city: "Berlin" }),
  dense(2, [0.19, 0.81, 0.75, 0.11], { city: ["Berlin", "London"] }),
  dense(3, [0.36, 0.55, 0.47, 0.94], { city: ["Berlin", "Moscow"] }),
  dense(4, [0.18, 0.01, 0.85, 0.8], { city: ["London", "Moscow"] }),
  dense(5, [0.24, 0.18, 0.22, 0.44], { count: 0 }),
  dense(6, [0.35, 0.08, 0.11, 0.44]),
  {
    id: 7,
    vector: {
      "sparse-image": { indices: [1, 2, 4, 8], values: [1.5, 1.5, 1.5, 1.5] },
      "sparse-text": { indices: [66, 12], values: [0.5, 0.5] },
    },
  },
  {
    id: 8,
    vector: {
      "sparse-image": { indices: [2, 8], values: [2.5, 2.5] },
      "sparse-text": { indices: [1, 2, 3], values: [0.1, 0.2, 0.3] },
    },
    payload: { count: 0 },
  },
];
