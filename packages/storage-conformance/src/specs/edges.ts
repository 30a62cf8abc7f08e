import type { MemoryEdge } from "@engram/core";
import type { StoragePort } from "@engram/core/storage";
import { expect } from "vitest";
import { makeEdge, stored } from "../records.js";
import { conformanceSpec } from "../spec.js";

const U = { userId: "u1" };
const key = (e: MemoryEdge) => `${e.from}-${e.type}->${e.to}`;
const keys = (edges: readonly MemoryEdge[]) => edges.map(key).sort();

const GRAPH = [
  makeEdge("u1", "p1", "p2", "next"),
  makeEdge("u1", "p2", "p3", "next"),
  makeEdge("u1", "p1", "seg", "part_of"),
  makeEdge("u1", "p2", "seg", "part_of"),
  makeEdge("u1", "fact", "p1", "derived_from"),
];

async function writeGraph(port: StoragePort): Promise<void> {
  await port.write(U, {
    upsert: ["p1", "p2", "p3", "seg", "fact"].map((id) => stored({ id, userId: "u1" })),
    edges: GRAPH,
  });
}

export const edges = conformanceSpec("edges", ({ test }) => {
  test("returns every edge of the user for an empty query, exactly as written", async (port) => {
    await writeGraph(port);
    const edges = await port.edges(U, {});
    expect(keys(edges)).toEqual(keys(GRAPH));
    expect(edges.find((e) => e.from === "fact")).toEqual(GRAPH[4]);
  });

  test("filters by source, target and type, alone and combined", async (port) => {
    await writeGraph(port);
    expect(keys(await port.edges(U, { from: "p1" }))).toEqual(["p1-next->p2", "p1-part_of->seg"]);
    expect(keys(await port.edges(U, { to: "seg" }))).toEqual(["p1-part_of->seg", "p2-part_of->seg"]);
    expect(keys(await port.edges(U, { type: "next" }))).toEqual(["p1-next->p2", "p2-next->p3"]);
    expect(keys(await port.edges(U, { from: "p2", type: "next" }))).toEqual(["p2-next->p3"]);
    expect(keys(await port.edges(U, { from: "p1", to: "p2" }))).toEqual(["p1-next->p2"]);
    expect(await port.edges(U, { from: "p3" })).toEqual([]);
  });

  test("takes several targets: the edges into any of them", async (port) => {
    await writeGraph(port);
    expect(keys(await port.edges(U, { to: ["seg", "p2"] }))).toEqual([
      "p1-next->p2",
      "p1-part_of->seg",
      "p2-part_of->seg",
    ]);
    expect(keys(await port.edges(U, { to: ["seg", "p2"], type: "part_of" }))).toEqual([
      "p1-part_of->seg",
      "p2-part_of->seg",
    ]);
    expect(keys(await port.edges(U, { to: ["p3"] }))).toEqual(["p2-next->p3"]);
    expect(await port.edges(U, { to: [] })).toEqual([]);
    expect(await port.edges({ userId: "u2" }, { to: ["seg", "p2"] })).toEqual([]);
  });

  test("reads of the same targets again see the edges written and deleted since, oldest first", async (port) => {
    await writeGraph(port);
    const members = () => port.edges(U, { to: ["seg", "p3"], type: "part_of" });
    expect(keys(await members())).toEqual(["p1-part_of->seg", "p2-part_of->seg"]);
    const later = (from: string, to: string) => ({
      ...makeEdge("u1", from, to, "part_of"),
      createdAt: "2027-01-01T00:00:00.000Z",
    });
    await port.write(U, {
      upsert: [stored({ id: "p4", userId: "u1" })],
      edges: [later("p4", "p3"), later("p4", "seg")],
    });
    const after = await members();
    expect(keys(after)).toEqual(["p1-part_of->seg", "p2-part_of->seg", "p4-part_of->p3", "p4-part_of->seg"]);
    expect(after.slice(2).map((e) => e.from)).toEqual(["p4", "p4"]); // the newer edges last
    await port.write(U, { deleteIds: ["p1"] });
    expect(keys(await members())).toEqual(["p2-part_of->seg", "p4-part_of->p3", "p4-part_of->seg"]);
    expect(keys(await port.edges(U, { to: "seg", type: "part_of" }))).toEqual([
      "p2-part_of->seg",
      "p4-part_of->seg",
    ]);
  });

  test("stores an edge written twice once", async (port) => {
    await writeGraph(port);
    await port.write(U, { edges: [makeEdge("u1", "p1", "p2", "next")] });
    expect(await port.edges(U, { from: "p1", type: "next" })).toHaveLength(1);
  });

  test("the same endpoints may be linked by edges of different types", async (port) => {
    await writeGraph(port);
    await port.write(U, { edges: [makeEdge("u1", "p1", "p2", "related")] });
    expect(keys(await port.edges(U, { from: "p1", to: "p2" }))).toEqual(["p1-next->p2", "p1-related->p2"]);
  });

  test("deleting a memory removes the edges into and out of it, and only those", async (port) => {
    await writeGraph(port);
    await port.write(U, { deleteIds: ["p2"] });
    expect(keys(await port.edges(U, {}))).toEqual(["fact-derived_from->p1", "p1-part_of->seg"]);
  });
});
