import { userCube } from "@engram/core";
import type { MemoryFilter, StoragePort } from "@engram/core/storage";
import { iso, stored, unit } from "../records.js";

/** The user whose memories the filter fixture writes. */
export const FIXTURE_SCOPE = { userId: "u1" };

/** A word every fixture text contains, so a full-text query for it matches every record. */
export const COMMON_WORD = "lantern";

/** A query vector every fixture vector is close to (all have a positive first component). */
export const COMMON_VECTOR = unit(1, 0, 0, 0);

const FIXTURE = [
  stored(
    {
      id: "m1",
      userId: "u1",
      agentId: "a1",
      sessionId: "s1",
      text: "lantern by the door",
      validFrom: iso(10),
      createdAt: iso(10),
      metadata: { topic: "work", priority: 2, pinned: true },
    },
    unit(1, 0.1, 0, 0),
  ),
  stored(
    {
      id: "m2",
      userId: "u1",
      agentId: "a2",
      sessionId: "s2",
      role: "assistant",
      text: "a lantern for camping",
      validFrom: iso(20),
      createdAt: iso(20),
      metadata: { topic: "home", priority: 1, pinned: false },
    },
    unit(1, 0.2, 0, 0),
  ),
  stored(
    {
      id: "p1",
      userId: "u1",
      agentId: "a1",
      sessionId: "s1",
      kind: "page",
      tier: "mid",
      role: null,
      text: "lantern festival page",
      validFrom: iso(30),
      createdAt: iso(30),
      metadata: { topic: "work", priority: 1 },
    },
    unit(1, 0, 0.3, 0),
  ),
  stored(
    {
      id: "f1",
      userId: "u1",
      cube: ["project", "p1"],
      kind: "fact",
      tier: "long",
      role: null,
      key: "city",
      text: "the lantern shop is in Lyon",
      validFrom: iso(40),
      createdAt: iso(40),
      expiredAt: iso(60),
      metadata: { topic: "work" },
    },
    unit(1, 0, 0, 0.4),
  ),
  stored(
    {
      id: "f2",
      userId: "u1",
      cube: ["project", "p1"],
      kind: "fact",
      tier: "long",
      role: null,
      key: "country",
      text: "the lantern shop moved to Spain",
      validFrom: iso(50),
      createdAt: iso(55),
      metadata: { topic: "home", pinned: true },
    },
    unit(1, 0.5, 0.5, 0),
  ),
  stored(
    {
      id: "i1",
      userId: "u1",
      cube: ["ns", "a"],
      kind: "item",
      tier: "long",
      role: null,
      key: "doc",
      text: "lantern document item",
      validFrom: null,
      createdAt: iso(5),
      metadata: { n: "2", flag: 1 },
    },
    unit(1, -0.3, 0, 0),
  ),
];

/** Writes the six fixture records (plus one of another user, which no filter may ever return). */
export async function writeFilterFixture(port: StoragePort): Promise<void> {
  await port.write(FIXTURE_SCOPE, { upsert: FIXTURE });
  await port.write(
    { userId: "u2" },
    { upsert: [stored({ id: "other", userId: "u2", text: "lantern of another user" }, unit(1, 0, 0, 0))] },
  );
}

/** Each filter with the fixture ids it must select, sorted. */
export const FILTER_CASES: readonly { name: string; filter: MemoryFilter; ids: string[] }[] = [
  { name: "no filter", filter: {}, ids: ["f1", "f2", "i1", "m1", "m2", "p1"] },
  { name: "ids (unknown ids ignored)", filter: { ids: ["m2", "f1", "zz"] }, ids: ["f1", "m2"] },
  { name: "kinds: one kind", filter: { kinds: ["fact"] }, ids: ["f1", "f2"] },
  { name: "kinds: several kinds", filter: { kinds: ["message", "page"] }, ids: ["m1", "m2", "p1"] },
  { name: "tiers", filter: { tiers: ["long"] }, ids: ["f1", "f2", "i1"] },
  { name: "roles", filter: { roles: ["assistant"] }, ids: ["m2"] },
  { name: "cubes: one cube", filter: { cubes: [["project", "p1"]] }, ids: ["f1", "f2"] },
  {
    name: "cubes: several cubes",
    filter: {
      cubes: [
        ["project", "p1"],
        ["ns", "a"],
      ],
    },
    ids: ["f1", "f2", "i1"],
  },
  { name: "cubes: the user's own cube", filter: { cubes: [userCube("u1")] }, ids: ["m1", "m2", "p1"] },
  { name: "agentId", filter: { agentId: "a1" }, ids: ["m1", "p1"] },
  { name: "sessionId", filter: { sessionId: "s1" }, ids: ["m1", "p1"] },
  { name: "key", filter: { key: "city" }, ids: ["f1"] },
  {
    name: "current: true hides the expired record",
    filter: { current: true },
    ids: ["f2", "i1", "m1", "m2", "p1"],
  },
  {
    name: "current: false restricts nothing",
    filter: { current: false },
    ids: ["f1", "f2", "i1", "m1", "m2", "p1"],
  },
  {
    name: "at: before a record expired, it is visible; later records are not yet known",
    filter: { at: iso(45) },
    ids: ["f1", "i1", "m1", "m2", "p1"],
  },
  {
    name: "at: the expiry instant hides the record; its successor is known",
    filter: { at: iso(60) },
    ids: ["f2", "i1", "m1", "m2", "p1"],
  },
  { name: "at: a record stored exactly then is known", filter: { at: iso(10) }, ids: ["i1", "m1"] },
  {
    name: "from and to (inclusive, on validFrom)",
    filter: { from: iso(20), to: iso(40) },
    ids: ["f1", "m2", "p1"],
  },
  { name: "from only", filter: { from: iso(41) }, ids: ["f2"] },
  { name: "to only", filter: { to: iso(10) }, ids: ["m1"] },
  { name: "metadata: a string field", filter: { metadata: { topic: "work" } }, ids: ["f1", "m1", "p1"] },
  { name: "metadata: a number field", filter: { metadata: { priority: 1 } }, ids: ["m2", "p1"] },
  { name: "metadata: boolean true", filter: { metadata: { pinned: true } }, ids: ["f2", "m1"] },
  { name: "metadata: boolean false", filter: { metadata: { pinned: false } }, ids: ["m2"] },
  {
    name: "metadata: several fields all match",
    filter: { metadata: { topic: "work", priority: 2 } },
    ids: ["m1"],
  },
  {
    name: "metadata $eq is equality",
    filter: { metadata: { pinned: { $eq: true } } },
    ids: ["f2", "m1"],
  },
  {
    name: "metadata $ne also matches memories without the field",
    filter: { metadata: { topic: { $ne: "work" } } },
    ids: ["f2", "i1", "m2"],
  },
  {
    name: "metadata $in: any of the values",
    filter: { metadata: { topic: { $in: ["work", "home"] } } },
    ids: ["f1", "f2", "m1", "m2", "p1"],
  },
  {
    name: "metadata $nin: none of the values, or no field",
    filter: { metadata: { priority: { $nin: [1, 3] } } },
    ids: ["f1", "f2", "i1", "m1"],
  },
  {
    name: 'metadata $in is type-strict: the number 2 is not the string "2"',
    filter: { metadata: { n: { $in: [2, true] } } },
    ids: [],
  },
  { name: "metadata $in with a string", filter: { metadata: { n: { $in: ["2"] } } }, ids: ["i1"] },
  { name: "metadata $gt", filter: { metadata: { priority: { $gt: 1 } } }, ids: ["m1"] },
  { name: "metadata $gte", filter: { metadata: { priority: { $gte: 1 } } }, ids: ["m1", "m2", "p1"] },
  { name: "metadata $lt", filter: { metadata: { priority: { $lt: 2 } } }, ids: ["m2", "p1"] },
  {
    name: "metadata $lte with a fraction",
    filter: { metadata: { priority: { $lte: 1.5 } } },
    ids: ["m2", "p1"],
  },
  {
    name: "metadata: several operators on one field all hold",
    filter: { metadata: { priority: { $gte: 1, $lt: 2, $ne: 7 } } },
    ids: ["m2", "p1"],
  },
  {
    name: "metadata ranges compare numbers only: a string field is never in range",
    filter: { metadata: { n: { $gt: 0 } } },
    ids: [],
  },
  {
    name: "metadata: a range on one field and a value on another",
    filter: { metadata: { flag: { $gte: 1 }, n: "2" } },
    ids: ["i1"],
  },
  {
    name: "metadata: a range and a kind filter",
    filter: { kinds: ["message"], metadata: { priority: { $lte: 2 } } },
    ids: ["m1", "m2"],
  },
  { name: "several filters combine with AND", filter: { kinds: ["message"], sessionId: "s1" }, ids: ["m1"] },
  { name: "current combined with tiers", filter: { current: true, tiers: ["long"] }, ids: ["f2", "i1"] },
  { name: "an empty kinds list matches nothing", filter: { kinds: [] }, ids: [] },
  { name: "an empty ids list matches nothing", filter: { ids: [] }, ids: [] },
];
