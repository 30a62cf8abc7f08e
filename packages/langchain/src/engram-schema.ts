import type { Engram } from "@engram/core";
import { z } from "zod";

/** Accepts an Engram instance (checked by shape, so a second installed copy of the core still works). */
export const engramSchema = z.custom<Engram>(
  (v) =>
    typeof v === "object" &&
    v !== null &&
    typeof (v as Engram).retrieve === "function" &&
    typeof (v as Engram).add === "function",
  { message: "expected an Engram instance from createEngram()" },
);
