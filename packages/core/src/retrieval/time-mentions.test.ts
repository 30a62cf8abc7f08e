import { describe, expect, it } from "vitest";
import { chrono } from "./load-chrono.js";
import {
  humanDate,
  mayNameTime,
  resolveTimeMentions,
  storedTimeMentions,
  timeNote,
} from "./time-mentions.js";
import { queryTimeRange } from "./time-prior.js";

// A Monday afternoon, as LoCoMo's sessions are dated.
const said = new Date("2023-05-08T13:56:00Z");

describe("resolveTimeMentions", () => {
  it("resolves relative days, weekdays, months and years against when the turn was said", () => {
    expect(resolveTimeMentions("I went to a support group yesterday.", said)).toEqual([
      { text: "yesterday", date: "2023-05-07" },
    ]);
    expect(resolveTimeMentions("Last Saturday we went camping", said)).toEqual([
      { text: "Last Saturday", date: "2023-05-06" },
    ]);
    expect(resolveTimeMentions("We're off to the beach next month!", said)).toEqual([
      { text: "next month", date: "2023-06" },
    ]);
    expect(resolveTimeMentions("I painted that sunrise last year", said)).toEqual([
      { text: "last year", date: "2022" },
    ]);
    expect(resolveTimeMentions("two weeks ago I ran a charity race", said)).toEqual([
      { text: "two weeks ago", date: "2023-04-24" },
    ]);
  });

  it("keeps absolute dates at their precision", () => {
    expect(resolveTimeMentions("we met in May 2023", said)).toEqual([{ text: "May 2023", date: "2023-05" }]);
    expect(resolveTimeMentions("It was on 3 March 2021.", said)).toEqual([
      { text: "on 3 March 2021", date: "2021-03-03" },
    ]);
    expect(resolveTimeMentions("I graduated in 2015, back in the day", said)).toEqual([
      { text: "in 2015", date: "2015" },
    ]);
  });

  it("leaves out durations, bare times of day and words that only look like months", () => {
    expect(resolveTimeMentions("I have been doing pottery for 7 years", said)).toEqual([]);
    expect(resolveTimeMentions("Call me at 3 pm", said)).toEqual([]);
    expect(resolveTimeMentions("Right now I'm busy; we sat in the sun today.", said)).toEqual([]);
    expect(resolveTimeMentions("May I ask you something?", said)).toEqual([]);
    expect(resolveTimeMentions("No dates here at all.", said)).toEqual([]);
  });

  it("answers nothing for an invalid time", () => {
    expect(resolveTimeMentions("yesterday", new Date("not a date"))).toEqual([]);
  });
});

describe("mayNameTime", () => {
  const at = new Date("2023-05-08T12:00:00Z");
  // One or more of each kind of expression chrono's English parsers read.
  it.each([
    "see you tomorrow",
    "tmrw works",
    "what did we do last night",
    "it was a lovely evening",
    "meet at noon",
    "on Friday",
    "next thurs?",
    "in March",
    "sept was busy",
    "8 May 2023",
    "2023-05-08",
    "5/8",
    "at 7:30pm",
    "two weeks ago",
    "a few mins ago",
    "several h later",
    "in a w",
    "within a couple of days",
    "couple of d ago",
    "last month",
    "this weekend",
    "next quarter",
    "half an hour from now",
    "end of the month",
    "one d ago",
    "last d",
  ])("passes %j, where chrono finds a time", (text) => {
    expect(chrono().en.casual.parse(text, { instant: at, timezone: 0 }).length).toBeGreaterThan(0);
    expect(mayNameTime(text)).toBe(true);
  });

  it("stops texts with no time word, and with them chrono's readings of a unit inside a word", () => {
    for (const text of [
      "I love the idea of owning a piece that lasts",
      "the book In the Heights",
      "I'm not sure I have almond flour for the Honey Almond Cake",
      "they said any ones and all of them",
    ]) {
      expect(mayNameTime(text), text).toBe(false);
      expect(resolveTimeMentions(text, at), text).toEqual([]);
      expect(queryTimeRange(text, at), text).toBeNull();
    }
    // Without the check chrono read "lasts" as "last s", a second before the turn.
    expect(chrono().en.casual.parse("a piece that lasts", { instant: at, timezone: 0 }).length).toBe(1);
  });
});

describe("rendering resolved dates", () => {
  it("writes dates as people do, at their precision", () => {
    expect(humanDate("2023-05-07")).toBe("7 May 2023");
    expect(humanDate("2023-06")).toBe("June 2023");
    expect(humanDate("2022")).toBe("2022");
  });

  it("notes each mention after the turn's text", () => {
    expect(timeNote([])).toBe("");
    expect(
      timeNote([
        { text: "yesterday", date: "2023-05-07" },
        { text: "last year", date: "2022" },
      ]),
    ).toBe(" (yesterday = 7 May 2023; last year = 2022)");
  });

  it("reads back only well-formed stored mentions", () => {
    expect(storedTimeMentions({})).toEqual([]);
    expect(storedTimeMentions({ times: "yesterday" })).toEqual([]);
    expect(
      storedTimeMentions({ times: [{ text: "yesterday", date: "2023-05-07" }, { text: 1 }, null] }),
    ).toEqual([{ text: "yesterday", date: "2023-05-07" }]);
  });
});
