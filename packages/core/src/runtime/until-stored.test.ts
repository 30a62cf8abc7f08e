import { describe, expect, it } from "vitest";
import { ConflictError } from "../errors/index.js";
import { CONFLICT_TRIES, untilStored } from "./until-stored.js";

describe("untilStored", () => {
  it("redoes a step whose write lost until it stores", async () => {
    let tries = 0;
    expect(await untilStored("step", async () => (++tries < 3 ? null : "stored"))).toBe("stored");
    expect(tries).toBe(3);
  });

  it("gives way with a ConflictError after CONFLICT_TRIES lost writes, so the job is retried later", async () => {
    let tries = 0;
    await expect(
      untilStored("step", async () => {
        tries++;
        return null;
      }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(tries).toBe(CONFLICT_TRIES);
  });
});
