import { describe, expect, it } from "vitest";
import { humanDate, resolveTimeMentions, storedTimeMentions, timeNote } from "./time-mentions.js";

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
