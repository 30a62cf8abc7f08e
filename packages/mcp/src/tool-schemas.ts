import { z } from "zod";

/** An id as the engine accepts it; trimmed, so " " is rejected here with the field named. */
export const idString = (what: string) =>
  z
    .string({ error: `expected ${what} as a string` })
    .trim()
    .min(1, `${what} must not be empty`)
    .max(256, `${what} must be at most 256 characters`);

const text = (what: string) =>
  z
    .string({ error: `expected ${what} as a string` })
    .trim()
    .min(1, `${what} must not be empty`);

/** ISO 8601, checked here so a bad time is rejected before anything is stored. */
const time = z
  .string({ error: "expected timestamp as an ISO 8601 string" })
  .refine((v) => !Number.isNaN(Date.parse(v)), 'expected an ISO 8601 time such as "2026-01-05T10:00:00Z"');

/** Conditions on metadata, checked by the engine (which names a bad field or operator). */
const filter = z
  .record(z.string(), z.unknown(), { error: "expected filter as an object of metadata conditions" })
  .optional()
  .describe(
    'Only memories whose metadata passes, e.g. {"project": "apollo", "priority": {"$gte": 2}}. Operators: ' +
      "$eq, $ne, $in, $nin, and $gt, $gte, $lt, $lte on numbers.",
  );

export const userField = {
  user_id: idString("user_id")
    .optional()
    .describe("Whose memory to use. Optional when the server was started with a default user."),
};

export const addMemoryShape = {
  ...userField,
  user_input: text("user_input").describe("What the user said in this turn, verbatim."),
  agent_response: text("agent_response")
    .optional()
    .describe("What the assistant answered in this turn, verbatim. Omit when there was no answer yet."),
  timestamp: time.optional().describe("When the turn happened (ISO 8601). Default: now."),
  session_id: idString("session_id")
    .optional()
    .describe("Conversation id, to keep turns of one chat together."),
  metadata: z
    .record(z.string(), z.unknown(), { error: "expected metadata as an object" })
    .optional()
    .describe(
      'Fields stored with both turns (e.g. {"project": "apollo"}), which `filter` can select on later.',
    ),
};

export const retrieveMemoryShape = {
  ...userField,
  query: text("query").describe("The user's current message or the question to answer."),
  max_tokens: z
    .number({ error: "expected max_tokens as a number" })
    .int("max_tokens must be a whole number")
    .min(50, "max_tokens must be at least 50")
    .max(100_000, "max_tokens must be at most 100000")
    .optional()
    .describe("Token budget for the returned memory context. Default 1500."),
  filter,
};

export const profileShape = {
  ...userField,
  include_knowledge: z
    .boolean({ error: "expected include_knowledge as true or false" })
    .optional()
    .describe("Also list the user's current facts with their ids. Default true."),
};

export const searchMemoryShape = {
  ...userField,
  query: text("query").describe("Words or a question to search for."),
  k: z
    .number({ error: "expected k as a number" })
    .int("k must be a whole number")
    .min(1, "k must be at least 1")
    .max(100, "k must be at most 100")
    .optional()
    .describe("How many results. Default 10."),
  tier: z
    .enum(["short", "mid", "long"], { error: "expected tier to be short, mid or long" })
    .optional()
    .describe("Only this tier: short (recent turns), mid (topic segments), long (facts about the user)."),
  min_score: z
    .number({ error: "expected min_score as a number" })
    .min(0, "min_score must be at least 0")
    .max(1, "min_score must be at most 1")
    .optional()
    .describe("Leave out results whose relevance (0 to 1, comparable across queries) is below this."),
  filter,
};

export const updateMemoryShape = {
  ...userField,
  memory_id: idString("memory_id").describe("The id of the memory, as returned by search_memory."),
  text: text("text").describe("The corrected text; the old version stays in the memory's history."),
};

export const deleteMemoryShape = {
  ...userField,
  memory_id: idString("memory_id").describe("The id of the memory, as returned by search_memory."),
};

export const feedbackShape = {
  ...userField,
  text: text("text").describe('The correction in the user\'s words, e.g. "Actually I moved to Berlin".'),
};

export const forgetUserShape = {
  ...userField,
  confirm: z
    .literal(true, { error: "confirm must be true: forgetting a user cannot be undone" })
    .describe("Must be true. Erases everything stored for the user; it cannot be undone."),
};
