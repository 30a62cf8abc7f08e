import { expect } from "vitest";
import { iso, stored } from "../records.js";
import { conformanceSpec } from "../spec.js";

const U = { userId: "u1" };

/** Written out of time order, so insertion order never explains a correct result. */
const TIMELINE = [
  stored({ id: "t3", userId: "u1", validFrom: iso(30), createdAt: iso(1) }),
  stored({ id: "t1", userId: "u1", validFrom: iso(10), createdAt: iso(3) }),
  stored({ id: "t4", userId: "u1", validFrom: iso(40), createdAt: iso(2) }),
  stored({ id: "t2", userId: "u1", validFrom: iso(20), createdAt: iso(4) }),
  stored({ id: "t5", userId: "u1", validFrom: iso(50), createdAt: iso(0) }),
];

const ids = (records: readonly { id: string }[]) => records.map((r) => r.id);

export const scanOrder = conformanceSpec("scan order and pagination", ({ test }) => {
  test("orders by event time, oldest first by default", async (port) => {
    await port.write(U, { upsert: TIMELINE });
    expect(ids(await port.scan(U))).toEqual(["t1", "t2", "t3", "t4", "t5"]);
    expect(ids(await port.scan(U, { order: "asc" }))).toEqual(["t1", "t2", "t3", "t4", "t5"]);
  });

  test("orders newest first with order: desc", async (port) => {
    await port.write(U, { upsert: TIMELINE });
    expect(ids(await port.scan(U, { order: "desc" }))).toEqual(["t5", "t4", "t3", "t2", "t1"]);
  });

  test("breaks ties on event time by createdAt", async (port) => {
    await port.write(U, {
      upsert: [
        stored({ id: "late", userId: "u1", validFrom: iso(10), createdAt: iso(12) }),
        stored({ id: "early", userId: "u1", validFrom: iso(10), createdAt: iso(11) }),
      ],
    });
    expect(ids(await port.scan(U))).toEqual(["early", "late"]);
    expect(ids(await port.scan(U, { order: "desc" }))).toEqual(["late", "early"]);
  });

  test("limit and offset page through the ordered list without gaps or repeats", async (port) => {
    await port.write(U, { upsert: TIMELINE });
    for (const order of ["asc", "desc"] as const) {
      const all = ids(await port.scan(U, { order }));
      const pages: string[] = [];
      for (let offset = 0; offset < all.length; offset += 2) {
        pages.push(...ids(await port.scan(U, { order, limit: 2, offset })));
      }
      expect(pages).toEqual(all);
    }
  });

  test("limit caps the result; an offset past the end returns nothing", async (port) => {
    await port.write(U, { upsert: TIMELINE });
    expect(ids(await port.scan(U, { limit: 3 }))).toEqual(["t1", "t2", "t3"]);
    expect(ids(await port.scan(U, { offset: 3 }))).toEqual(["t4", "t5"]);
    expect(await port.scan(U, { offset: 10 })).toEqual([]);
  });

  test("pagination applies after the filter", async (port) => {
    await port.write(U, {
      upsert: [...TIMELINE, stored({ id: "page", userId: "u1", kind: "page", validFrom: iso(15) })],
    });
    const filter = { kinds: ["message" as const] };
    expect(ids(await port.scan(U, { filter, limit: 2, offset: 1 }))).toEqual(["t2", "t3"]);
  });
});
