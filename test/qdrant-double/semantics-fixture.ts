import { afterAll, beforeAll, beforeEach } from "vitest";
import { type QdrantDouble, startQdrantDouble } from "./index.js";

/** A double with collection `c` (2-dim Cosine `dense`, IDF sparse `text`) holding POINTS, fresh per test. */

let double: QdrantDouble;

export async function result<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(double.url + path, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { result: T; status: unknown };
  if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(json.status)}`);
  return json.result;
}

export type Hit = { id: number | string; score: number; payload?: Record<string, unknown> };
export const ids = (points: { id: unknown }[]) => points.map((point) => point.id);
export const scroll = async (body: unknown) =>
  result<{ points: Hit[]; next_page_offset: unknown }>("POST", "/collections/c/points/scroll", body);
export const query = async (body: unknown) =>
  (await result<{ points: Hit[] }>("POST", "/collections/c/points/query", body)).points;

export const POINTS = [
  {
    id: 1,
    vector: { dense: [1, 0], text: { indices: [1, 2], values: [1, 1] } },
    payload: { city: "Berlin", n: 1, tags: ["a", "b"], at: "2024-01-01T00:00:00Z" },
  },
  {
    id: 2,
    vector: { dense: [0.9, 0.1], text: { indices: [1], values: [1] } },
    payload: {
      city: ["London", "Berlin"],
      n: 5,
      nested: [
        { k: "x", v: 1 },
        { k: "y", v: 2 },
      ],
    },
  },
  {
    id: 3,
    vector: { dense: [0, 1], text: { indices: [1, 3], values: [1, 1] } },
    payload: { city: null, n: 10, at: "2024-06-01T00:00:00" },
  },
  { id: 4, vector: { dense: [0.5, 0.5] }, payload: { city: [], nested: [{ k: "x", v: 2 }] } },
  { id: 5, vector: { dense: [-1, 0] }, payload: {} },
];

/** Installs the hooks: one double per file, reset and refilled before every test. */
export function useSemanticsFixture(): void {
  beforeAll(async () => {
    double = await startQdrantDouble();
  });
  beforeEach(async () => {
    double.reset();
    await result("PUT", "/collections/c", {
      vectors: { dense: { size: 2, distance: "Cosine" } },
      sparse_vectors: { text: { modifier: "idf" } },
    });
    await result("PUT", "/collections/c/points?wait=true", { points: POINTS });
  });
  afterAll(async () => {
    await double.close();
  });
}
