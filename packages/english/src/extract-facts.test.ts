import { describe, expect, it } from "vitest";
import { type ExtractInput, extractFacts } from "./extract-facts.js";
import { loadParser } from "./parse/parser.js";

/** Facts of one message as "+slot=value" (or "-slot=value" for a retraction), in extraction order. */
function facts(text: string, role: ExtractInput["role"] = "user"): string[] {
  return extractFacts([{ id: "m1", role, text }]).map((f) => `${f.negated ? "-" : "+"}${f.slot}=${f.value}`);
}

type Case = [text: string, expected: string[]];

const IDENTITY: Case[] = [
  ["Hi, I'm Maya.", ["+name=Maya"]],
  ["My name is Maya Lopez and I'm 34 years old.", ["+name=Maya Lopez", "+age=34"]],
  ["Call me Jay.", ["+name=Jay"]],
  ["I'm Jordan, by the way.", ["+name=Jordan"]],
  ["I turned 30 yesterday.", ["+age=30"]],
  ["I'm from Ohio originally.", ["+from=Ohio"]],
  ["I grew up in Rio de Janeiro.", ["+from=Rio de Janeiro"]],
  ["I live in Berlin.", ["+lives_in=Berlin"]],
  ["I'm based in New York City now.", ["+lives_in=New York City"]],
  ["I live in Portland, Oregon.", ["+lives_in=Portland, Oregon"]],
  ["I moved to Lisbon last year.", ["+lives_in=Lisbon"]],
  ["I moved from Munich to Berlin in 2019.", ["+lives_in=Berlin"]],
  // Chat leaves out the apostrophe of a negation.
  ["i dont live in Munich anymore.", ["-lives_in=Munich"]],
  // A change of school is not a move of home (the parsed reader reads the schools).
  ["I moved from KCL to Exeter for my final year.", []],
  ["I have lived in Berlin for 5 years.", ["+lives_in=Berlin"]],
  ["I no longer live in Munich.", ["-lives_in=Munich"]],
];

const WORK: Case[] = [
  ["I'm a nurse.", ["+works_as=nurse"]],
  ["I'm now a product manager.", ["+works_as=product manager"]],
  ["I work as a high school teacher.", ["+works_as=high school teacher"]],
  // A second verb of the same subject is read as its own clause.
  [
    "Big news: I quit nursing last month and started working as a paramedic with the city ambulance service.",
    ["+works_as=paramedic"],
  ],
  ["I visited my aunt and then moved to Leeds.", ["+lives_in=Leeds"]],
  ["I'm a software engineer at Google.", ["+works_as=software engineer", "+works_at=Google"]],
  ["I work at Google as an engineer.", ["+works_at=Google", "+works_as=engineer"]],
  [
    "I'm a nurse practitioner at St. Mary's Hospital.",
    ["+works_as=nurse practitioner", "+works_at=St. Mary's Hospital"],
  ],
  ["I just started at Acme Corp.", ["+works_at=Acme Corp"]],
  ["I work at a small startup called Lumen.", ["+works_at=Lumen"]],
  ["I quit my job at Initech.", ["-works_at=Initech"]],
  ["I was laid off from Meta.", ["-works_at=Meta"]],
  ["I'm the founder of Acme.", ["+works_as=founder", "+works_at=Acme"]],
  ["I'm retired.", ["+works_as=retired"]],
  ["I've been a teacher for 10 years.", ["+works_as=teacher"]],
  ["I'm not a nurse anymore.", ["-works_as=nurse"]],
  ["I'm a student at MIT.", ["+school=MIT"]],
  ["I'm a law student at Trinity.", ["+studies=law", "+school=Trinity"]],
  // As learners of English say it.
  ["I am married with Tariq.", ["+marital_status=married", "+partner=Tariq"]],
  // The words before "student" name the school here, not the field.
  ["I'm a Leeds uni student.", []],
  ["I study computer science at Stanford.", ["+studies=computer science", "+school=Stanford"]],
];

const FAMILY: Case[] = [
  ["My sister is a biologist.", ["+sister.occupation=biologist"]],
  ["My brother lives in Toronto.", ["+brother.lives_in=Toronto"]],
  ["My older brother is an accountant in Chicago.", ["+brother.occupation=accountant"]],
  ["My dad works at Siemens.", ["+father.works_at=Siemens"]],
  ["My mom is 62.", ["+mother.age=62"]],
  ["My wife Anna is a doctor.", ["+partner.occupation=doctor", "+partner=Anna", "+marital_status=married"]],
  ["My sister's name is Anna.", ["+sister.name=Anna"]],
  ["I have a son named Leo.", ["+child=Leo"]],
  ["I have a son, Theo.", ["+child=Theo"]],
  ["I have two kids.", ["+children=2"]],
  ["I'm a mom of two.", ["+children=2"]],
  ["I'm married to John.", ["+marital_status=married", "+partner=John"]],
  ["I got engaged last week!", ["+marital_status=engaged"]],
  ["I'm engaged to Sam.", ["+marital_status=engaged", "+partner=Sam"]],
  ["My sister doesn't live in Paris anymore.", ["-sister.lives_in=Paris"]],
  ["I have a dog named Biscuit.", ["+pet=dog", "+pet.name=Biscuit"]],
  ["We've got a pup and a kitty.", ["+pet=dog", "+pet=cat"]],
  ["I've got two cats named Luna and Leo.", ["+pet=cat", "+pet.name=Luna", "+pet.name=Leo"]],
  ["I took my dog Rex to the vet.", ["+pet=dog", "+pet.name=Rex"]],
  ["my parrot Kiwi can say hello now", ["+pet=parrot", "+pet.name=Kiwi"]],
  ["our dog Rufus died last spring", ["-pet=dog", "-pet.name=Rufus"]],
  ["I don't have a cat anymore.", ["-pet=cat"]],
  ["My dog died last year.", ["-pet=dog"]],
];

const PREFERENCES: Case[] = [
  ["I love hiking and swimming.", ["+likes=hiking", "+likes=swimming"]],
  ["I love to paint.", ["+likes=painting"]],
  ["I'm a big fan of jazz.", ["+likes=jazz"]],
  ["I love the Beatles.", ["+likes=the Beatles"]],
  ["I love running my own studio.", ["+likes=running their own studio"]],
  ["I hate cilantro.", ["+dislikes=cilantro"]],
  ["I don't like horror movies.", ["+dislikes=horror movies"]],
  ["I don't like jazz anymore.", ["-likes=jazz"]],
  ["I prefer tea over coffee.", ["+likes=tea"]],
  ["I switched from coffee to tea.", ["+likes=tea", "-likes=coffee"]],
  ["My favourite food is sushi.", ["+favourite.food=sushi"]],
  ["Harry Potter is my favorite book.", ["+favourite.book=Harry Potter"]],
  ["my favorite color is teal", ["+favourite.colour=teal"]],
  ["fave band rn is Paramore", ["+favourite.band=Paramore"]],
  ["my favourite film ever is Alien", ["+favourite.film=Alien"]],
  ["fave band is Wet Leg", ["+favourite.band=Wet Leg"]],
  ["I'm vegetarian.", ["+diet=vegetarian"]],
  ["I went vegan last month.", ["+diet=vegan"]],
  ["I'm no longer a vegetarian.", ["-diet=vegetarian"]],
  ["I'm allergic to peanuts.", ["+allergy=peanut"]],
  ["I have a peanut allergy.", ["+allergy=peanut"]],
  ["I'm allergic to nuts, shellfish and eggs", ["+allergy=nut", "+allergy=shellfish", "+allergy=egg"]],
  ["I love jazz, blues and soul", ["+likes=jazz", "+likes=blues", "+likes=soul"]],
  [
    "I play guitar, piano and drums",
    ["+hobby=playing guitar", "+hobby=playing piano", "+hobby=playing drums"],
  ],
  ["I'm allergic to cats and dust.", ["+allergy=cat", "+allergy=dust"]],
  ["I'm lactose intolerant.", ["+intolerance=lactose"]],
  ["I play guitar.", ["+hobby=playing guitar"]],
  ["I play the piano and the violin.", ["+hobby=playing piano", "+hobby=playing violin"]],
  ["I've been learning German.", ["+hobby=learning German"]],
  ["I'm learning to paint.", ["+hobby=learning to paint"]],
  ["I go hiking every weekend.", ["+hobby=hiking"]],
  ["I started running last month.", ["+hobby=running"]],
  ["My hobbies are reading and hiking.", ["+hobby=reading", "+hobby=hiking"]],
];

const PLANS: Case[] = [
  ["I'm planning to visit Japan next month.", ["+plan=visit Japan next month"]],
  ["I'm going to Japan next month.", ["+plan=go to Japan next month"]],
  ["I will visit my parents next weekend.", ["+plan=visit their parents next weekend"]],
  ["I'm moving to Berlin next month.", ["+plan=move to Berlin next month"]],
  ["I'm getting married next month!", ["+plan=get married next month"]],
  ["I'm planning a trip to the East Coast.", ["+plan=trip to the East Coast"]],
];

describe("extractFacts", () => {
  it("keeps one fact where the rules and the parsed readers say the same in other words", async () => {
    const { loadParser } = await import("./parse/parser.js");
    const nlp = await loadParser();
    const read = (text: string) =>
      extractFacts([{ id: "m1", role: "user", text }], nlp).map((f) => `${f.slot}=${f.value}`);
    expect(read("I play tennis on Sundays").filter((f) => f.startsWith("hobby="))).toHaveLength(1);
    expect(
      read("I'm studying chemistry at the University of Leeds").filter((f) => f.startsWith("school=")),
    ).toHaveLength(1);
  });

  it("mends a typo once, so the rules and the readers state one value", async () => {
    const { loadParser } = await import("./parse/parser.js");
    const nlp = await loadParser();
    const read = (text: string) =>
      extractFacts([{ id: "m1", role: "user", text }], nlp).map((f) => `${f.slot}=${f.value}`);
    expect(read("my job is acountant at deloitte")).toContain("works_as=accountant");
    expect(read("my job is acountant at deloitte")).not.toContain("works_as=acountant");
    expect(read("i live in manchster now")).toEqual(["lives_in=Manchester"]);
    expect(read("first yr nursing at Cardiff Uni n placements start next month")).toContain(
      "studies=nursing",
    );
    expect(read("started at Spotify in May, still getting used to it")).toContain("works_at=Spotify");
  });

  it("reads no title as a name", async () => {
    const { loadParser } = await import("./parse/parser.js");
    const nlp = await loadParser();
    const found = extractFacts(
      [{ id: "m1", role: "user", text: "Good evening, I am Mrs. Okoye, aged 58" }],
      nlp,
    );
    expect(found.filter((f) => f.slot === "name").map((f) => f.value)).toEqual(["Okoye"]);
  });

  it("keeps no fact that the same message retracts", async () => {
    const { loadParser } = await import("./parse/parser.js");
    const nlp = await loadParser();
    const found = extractFacts([{ id: "m1", role: "user", text: "we rehomed our cat Pixel in May" }], nlp);
    expect(found.filter((f) => f.slot.startsWith("pet")).every((f) => f.negated)).toBe(true);
    expect(found.some((f) => f.slot === "pet.name" && f.value === "Pixel")).toBe(true);
  });

  it("retracts a value set against another, on a slot of many values too", async () => {
    const { loadParser } = await import("./parse/parser.js");
    const nlp = await loadParser();
    const read = (text: string) =>
      extractFacts([{ id: "m1", role: "user", text }], nlp).map(
        (f) => `${f.negated ? "not " : ""}${f.slot}=${f.value}`,
      );
    expect(read("my rabbit is called Pip, not Pippa")).toEqual(
      expect.arrayContaining(["pet.name=Pip", "not pet.name=Pippa"]),
    );
    expect(read("I'm allergic to prawns, not crab")).toEqual(
      expect.arrayContaining(["allergy=prawn", "not allergy=crab"]),
    );
    expect(read("I'm a welder, not a plumber")).toEqual(
      expect.arrayContaining(["works_as=welder", "not works_as=plumber"]),
    );
    // An adverb or a count after "not" names no other value.
    expect(read("I live in Derby, not far from Nottingham")).toEqual(["lives_in=Derby"]);
    expect(read("I have two rabbits, not three").filter((f) => f.startsWith("not "))).toEqual([]);
  });

  for (const [name, table] of [
    ["identity and home", IDENTITY],
    ["work and study", WORK],
    ["family and pets", FAMILY],
    ["preferences, allergies and hobbies", PREFERENCES],
    ["plans", PLANS],
  ] as const) {
    it.each(table)(`${name}: %s`, (text, expected) => {
      expect(facts(text)).toEqual(expected);
    });
  }

  it("reads every clause and sentence of a message", () => {
    expect(
      facts("Thanks Mel! I live in Berlin and I work as a nurse; my sister is a doctor. How are you?"),
    ).toEqual(["+lives_in=Berlin", "+works_as=nurse", "+sister.occupation=doctor"]);
  });

  it("fills every field: subject, sentence, single-valuedness, confidence, evidence", () => {
    const [fact] = extractFacts([{ id: "turn-7", role: "user", text: "I moved to Lisbon." }]);
    expect(fact).toEqual({
      subject: "user",
      slot: "lives_in",
      value: "Lisbon",
      text: "The user moved to Lisbon.",
      single: true,
      negated: false,
      confidence: 0.85,
      evidence: "turn-7",
    });
    const [assistant] = extractFacts([{ id: "a1", role: "assistant", text: "I suggest you take a break." }]);
    expect(assistant).toMatchObject({ subject: "assistant", single: false, evidence: "a1" });
    expect(assistant?.text).toBe("The assistant recommended that the user take a break.");
  });

  it("writes retractions and relatives as readable sentences, with the speaker's name when known", () => {
    const texts = (text: string, name?: string) =>
      extractFacts([{ id: "m", role: "user", text, name }]).map((f) => f.text);
    expect(texts("I'm no longer a vegetarian.")).toEqual(["The user is no longer vegetarian."]);
    expect(texts("I quit my job at Initech.")).toEqual(["The user no longer works at Initech."]);
    expect(texts("My sister is a biologist.", "Caroline")).toEqual(["Caroline's sister is a biologist."]);
    expect(texts("I have a dog named Biscuit.", "Caroline")).toEqual([
      "Caroline has a dog named Biscuit.",
      "Caroline's dog is named Biscuit.",
    ]);
    expect(texts("I've got two cats named Luna and Leo.")).toEqual([
      "The user has two cats named Luna and Leo.",
      "The user's cat is named Luna.",
      "The user's cat is named Leo.",
    ]);
  });

  it("marks single-valued and multi-valued slots", () => {
    const single = (text: string) => extractFacts([{ id: "m", role: "user", text }]).map((f) => f.single);
    expect(single("I live in Berlin.")).toEqual([true]);
    expect(single("My sister is a biologist.")).toEqual([true]);
    expect(single("My favourite food is sushi.")).toEqual([true]);
    expect(single("I love jazz.")).toEqual([false]);
    expect(single("I'm allergic to peanuts.")).toEqual([false]);
    expect(single("I have a cat.")).toEqual([false]);
  });

  it("keeps one fact per slot and value within a message and tags facts with their own message", () => {
    const found = extractFacts([
      { id: "a", role: "user", text: "I love jazz. I really love jazz!" },
      { id: "b", role: "user", text: "I love jazz." },
    ]);
    expect(found.map((f) => [f.slot, f.value, f.evidence])).toEqual([
      ["likes", "jazz", "a"],
      ["likes", "jazz", "b"],
    ]);
  });
});

describe("extractFacts with the parser", () => {
  const marital = async (text: string) =>
    extractFacts([{ id: "m1", role: "user", text }], await loadParser())
      .filter((f) => f.slot === "marital_status" && !f.negated)
      .map((f) => f.value);

  it.each([
    ["I'm really into kayaking", "kayaking"],
    ["I love bouldering, it keeps me sane", "bouldering"],
  ])("keeps a pastime liked as a pastime: %s", async (text, hobby) => {
    const facts = extractFacts([{ id: "m1", role: "user", text }], await loadParser());
    expect(facts.filter((f) => f.slot === "hobby").map((f) => f.value)).toEqual([hobby]);
    expect(facts.filter((f) => f.slot === "likes")).toEqual([]);
  });

  it("reads a message typed in capitals, and a marriage or engagement said without a subject", async () => {
    const facts = extractFacts(
      [{ id: "m1", role: "user", text: "JUST GOT ENGAGED TO SARAH!!!" }],
      await loadParser(),
    );
    expect(facts.map((f) => `${f.slot}=${f.value}`)).toEqual(
      expect.arrayContaining(["marital_status=engaged", "partner=Sarah"]),
    );
    const work = extractFacts(
      [{ id: "m1", role: "user", text: "I work at IBM in Leeds" }],
      await loadParser(),
    );
    expect(work.map((f) => `${f.slot}=${f.value}`)).toContain("works_at=IBM");
  });

  it("keeps a game or a team liked as a taste", async () => {
    const facts = extractFacts([{ id: "m1", role: "user", text: "I love football" }], await loadParser());
    expect(facts.map((f) => `${f.slot}=${f.value}`)).toEqual(["likes=football"]);
  });

  it.each([
    ["my husband passed away last spring", "widowed"],
    ["my late husband was a pilot", "widowed"],
    ["My husband and I divorced in 2015.", "divorced"],
    ["my wife Ines and I separated after ten years", "separated"],
    ["my husband and I are moving to Leeds", "married"],
  ])("reads a spouse lost or parted from, not married: %s", async (text, status) => {
    expect(await marital(text)).toEqual([status]);
  });

  it("keeps no partner named for a spouse lost or parted from", async () => {
    const facts = extractFacts(
      [{ id: "m1", role: "user", text: "my husband Graham died in 2019" }],
      await loadParser(),
    );
    expect(facts.filter((f) => f.slot === "partner" && !f.negated)).toEqual([]);
  });
});
