import { z } from "zod";

/** An ISO 8601 time or a Date; stored as ISO. */
export const timeSchema = z
  .union([z.date(), z.string()], { error: "expected an ISO 8601 time string or a Date" })
  .transform((value, ctx) => {
    const ms = value instanceof Date ? value.getTime() : Date.parse(value);
    if (Number.isNaN(ms)) {
      ctx.addIssue({ code: "custom", message: `expected an ISO 8601 time such as "2026-01-05T10:00:00Z"` });
      return z.NEVER;
    }
    return new Date(ms).toISOString();
  });
