import { z } from "zod";
import { type Cube, idString, parseInput, repeatCounts, timeSchema, turnMessageId } from "../model/index.js";
import { type AddInput, messageSchema } from "./schemas.js";

const wrapperTurnSchema = z.object({
  userId: idString,
  agentId: idString.optional(),
  sessionId: idString.optional(),
  // Only hashed, never stored: any framework id fits, as it is.
  turnId: z
    .string({ error: "expected a string id" })
    .min(1, "must not be empty")
    .max(1024, "must be at most 1,024 characters")
    .optional(),
  at: timeSchema.optional(),
  messages: z.array(messageSchema.pick({ role: true, content: true })).min(1, "pass at least one message"),
});

/** A turn as a framework wrapper has it: whose, where, its messages, and what the framework knows of it. */
export type WrapperTurn = z.input<typeof wrapperTurnSchema>;

/** The `add` input of a stamped turn: its time is fixed, and with a `turnId` so are its message ids. */
export type StampedTurn = Omit<AddInput, "messages"> & {
  readonly at: string;
  readonly messages: readonly z.input<typeof messageSchema>[];
};

let lastStamp = 0;

/** Now, or just after the previous stamp, so two turns stamped in one process never share a time. */
function stampNow(): string {
  const now = Date.now();
  lastStamp = now > lastStamp ? now : lastStamp + 1;
  return new Date(lastStamp).toISOString();
}

/**
 * The `add` input for a wrapper's turn, stamped once so that every retry of the write stores it once:
 * its time is `at`, or now (never the same as another turn stamped in this process); with a `turnId`
 * (an id the framework keeps for the turn, such as its user message's id in a LangGraph state) each
 * message also gets an id derived from it, so a re-run that stamps the turn again still stores it once.
 * Without one, the ids are the content identity of the stamped time (docs/message-identity.md). Stamp a
 * turn when it is first seen and send the result with every retry.
 * @throws ValidationError naming the field of an invalid turn.
 */
export function stampTurn(turn: WrapperTurn): StampedTurn {
  const { userId, agentId, sessionId, turnId, at, messages } = parseInput(
    wrapperTurnSchema,
    turn,
    "stampTurn",
  );
  const cube: Cube = ["user", userId];
  const identities = messages.map((m) => ({
    userId,
    cube,
    sessionId: sessionId ?? null,
    role: m.role,
    text: m.content,
  }));
  const repeats = repeatCounts(identities, (identity) => JSON.stringify(identity));
  return {
    userId,
    ...(agentId === undefined ? {} : { agentId }),
    ...(sessionId === undefined ? {} : { sessionId }),
    at: at ?? stampNow(),
    messages: messages.map((m, i) => ({
      role: m.role,
      content: m.content,
      ...(turnId === undefined
        ? {}
        : {
            id: turnMessageId({
              ...(identities[i] as (typeof identities)[number]),
              turnId,
              repeat: repeats[i] as number,
            }),
          }),
    })),
  };
}
