import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ValidationError } from "../errors/index.js";
import { sequentialIds } from "../model/index.js";
import { UNCONTROLLED } from "../scheduler/index.js";
import type { Job } from "../storage/index.js";
import { defineJob, jobHandlers } from "./define-job.js";

const ran: { ctx: string; ids: string[] }[] = [];
const echo = defineJob({
  type: "echo",
  payload: z.object({ ids: z.array(z.string()) }),
  dedupe: true,
  run: async (ctx: string, _job, { ids }) => {
    ran.push({ ctx, ids });
  },
});

const job = (payload: Record<string, unknown>): Job =>
  ({ id: "job_1", userId: "u1", type: "echo", payload, attempts: 1 }) as unknown as Job;

describe("defineJob", () => {
  it("makes a queued job of its type, with its checked payload and, deduplicated, its type as the key", () => {
    expect(echo.create({ ids: sequentialIds() }, { ids: ["m1"] }, "2026-01-01T00:00:00.000Z")).toEqual({
      id: expect.stringMatching(/^job_/),
      type: "echo",
      payload: { ids: ["m1"] },
      dedupeKey: "echo",
      runAt: "2026-01-01T00:00:00.000Z",
    });
    expect(() =>
      echo.create({ ids: sequentialIds() }, { ids: [1] } as never, "2026-01-01T00:00:00.000Z"),
    ).toThrow();
  });

  it("runs its handler over the context with the parsed payload, and fails a malformed one, named", async () => {
    ran.length = 0;
    await echo.handler("ctx")(job({ ids: ["a", "b"] }), UNCONTROLLED);
    expect(ran).toEqual([{ ctx: "ctx", ids: ["a", "b"] }]);
    const error = await echo
      .handler("ctx")(job({ ids: "a" }), UNCONTROLLED)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(/the payload of a job of type echo is malformed/);
    expect(ran).toHaveLength(1);
  });
});

describe("jobHandlers", () => {
  it("gives each kind's handler by type and refuses two kinds of one type", () => {
    expect(Object.keys(jobHandlers("ctx", [echo]))).toEqual(["echo"]);
    expect(() => jobHandlers("ctx", [echo, echo])).toThrow(/two job kinds of type echo/);
  });
});
