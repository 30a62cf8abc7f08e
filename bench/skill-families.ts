// Task families for the procedural benchmark: each has a tool sequence a scripted agent follows, request
// templates with slot values, and held-out templates for new tasks. Unrelated requests come last.

import { seededRandom } from "@engram/core/testing";

export interface Family {
  readonly name: string;
  /** The procedure: tool names in order, each with the slots its arguments take. */
  readonly tools: readonly { readonly tool: string; readonly args: readonly string[] }[];
  /** Requests the agent runs (training). `{slot}` is filled from `values`. */
  readonly train: readonly string[];
  /** New requests of the same kind, worded differently, for retrieval (never traced). */
  readonly test: readonly string[];
  readonly values: Readonly<Record<string, readonly string[]>>;
}

export const FAMILIES: readonly Family[] = [
  {
    name: "restaurant booking",
    tools: [
      { tool: "check_availability", args: ["restaurant", "day", "party"] },
      { tool: "book_table", args: ["restaurant", "day", "party"] },
      { tool: "send_confirmation", args: ["restaurant"] },
    ],
    train: [
      "Book a table for {party} at {restaurant} on {day}",
      "Reserve a table at {restaurant} for {party} people on {day} evening",
      "Can you get us a table for {party} at {restaurant} this {day}?",
      "Please book dinner at {restaurant} on {day} for {party}",
    ],
    test: [
      "I need a dinner reservation at {restaurant} for {party} on {day}",
      "Get me a table at the restaurant {restaurant}, {party} guests, {day} night",
      "Book us a table for {party} people at {restaurant} {day}",
    ],
    values: {
      restaurant: ["Nopa", "Zuni Cafe", "Delfina", "Flour + Water", "State Bird", "Lazy Bear"],
      day: ["Friday", "Saturday", "Sunday", "Thursday"],
      party: ["2", "3", "4", "6"],
    },
  },
  {
    name: "flight booking",
    tools: [
      { tool: "search_flights", args: ["from", "to", "date"] },
      { tool: "select_fare", args: ["fare"] },
      { tool: "book_flight", args: ["from", "to", "date", "fare"] },
    ],
    train: [
      "Book me a flight from {from} to {to} on {date}",
      "Find and book the cheapest flight {from} to {to} for {date}",
      "I need to fly from {from} to {to} on {date}, please book it",
      "Get me a plane ticket {from} to {to} on {date}",
    ],
    test: [
      "Book a flight to {to} from {from} leaving {date}",
      "Can you book my flight from {from} to {to} on {date}?",
      "Buy a plane ticket from {from} to {to} for {date}",
    ],
    values: {
      from: ["Lisbon", "Berlin", "Madrid", "Oslo", "Rome"],
      to: ["London", "Paris", "Vienna", "Prague", "Dublin"],
      date: ["May 3", "June 12", "July 1", "August 20"],
      fare: ["economy", "basic", "flex"],
    },
  },
  {
    name: "expense report",
    tools: [
      { tool: "fetch_receipts", args: ["trip"] },
      { tool: "categorize_expenses", args: ["trip"] },
      { tool: "submit_report", args: ["trip", "approver"] },
    ],
    train: [
      "File my expense report for the {trip} trip and send it to {approver}",
      "Submit expenses from my {trip} trip for approval by {approver}",
      "Do the expense report for {trip}, approver {approver}",
      "Please claim my {trip} travel expenses, {approver} approves",
    ],
    test: [
      "Create an expense report for the trip to {trip} for {approver} to approve",
      "I have receipts from {trip}, please file the expenses with {approver}",
      "Submit my {trip} expense claim to {approver}",
    ],
    values: {
      trip: ["Lisbon", "Tokyo", "Chicago", "Nairobi", "Sydney"],
      approver: ["Maria", "Tom", "Priya", "Jonas"],
    },
  },
  {
    name: "meeting scheduling",
    tools: [
      { tool: "find_free_slots", args: ["person", "week"] },
      { tool: "create_event", args: ["person", "topic", "week"] },
      { tool: "invite_attendees", args: ["person"] },
    ],
    train: [
      "Schedule a meeting with {person} about {topic} {week}",
      "Set up a call with {person} to discuss {topic} {week}",
      "Find time with {person} {week} for the {topic} review",
      "Put a {topic} meeting with {person} in the calendar {week}",
    ],
    test: [
      "Arrange a meeting with {person} {week} to talk about {topic}",
      "Book a slot in the calendar with {person} about {topic} {week}",
      "Organise a {topic} sync with {person} {week}",
    ],
    values: {
      person: ["Ana", "Ben", "Chen", "Dara", "Eli"],
      topic: ["budget", "roadmap", "hiring", "launch plan"],
      week: ["next week", "this week", "on Monday"],
    },
  },
  {
    name: "bug triage",
    tools: [
      { tool: "search_issues", args: ["component"] },
      { tool: "reproduce_bug", args: ["component", "version"] },
      { tool: "create_ticket", args: ["component", "version", "severity"] },
    ],
    train: [
      "Triage the crash in the {component} on version {version}",
      "Look into the bug where {component} fails in {version} and file it as {severity}",
      "Users report {component} errors in {version}, please triage",
      "Investigate the {component} bug in release {version}",
    ],
    test: [
      "There is a new bug report about {component} in {version}, triage it",
      "Check whether the {component} crash in {version} is known and file a ticket",
      "Triage this issue: {component} broken since {version}",
    ],
    values: {
      component: ["login page", "search index", "payment service", "sync engine"],
      version: ["2.3", "2.4.1", "3.0", "3.1-beta"],
      severity: ["high", "medium", "low"],
    },
  },
];

/** Requests no family covers; a skill added for them is a false positive. */
export const UNRELATED: readonly string[] = [
  "What is the capital of Australia?",
  "Translate 'good morning' into Portuguese",
  "Summarise the plot of Moby Dick in two sentences",
  "What's the weather like in Oslo today?",
  "Write a haiku about autumn leaves",
  "How many grams are in a pound?",
  "Explain what a hash table is",
  "Recommend a good science fiction novel",
  "What time is it in Tokyo right now?",
  "Give me a recipe for pancakes",
  "Who won the football world cup in 2010?",
  "Convert 30 degrees Celsius to Fahrenheit",
  "Tell me a joke about cats",
  "What does the word 'ephemeral' mean?",
  "Help me name my new puppy",
  "How do I reset my router?",
  "What are the symptoms of a cold?",
  "Suggest a workout for beginners",
  "Proofread this sentence: their going to the park",
  "List three facts about octopuses",
];

/** A deterministic pseudo-random source: the project's one seeded generator. */
export const random = seededRandom;

/** A template filled with one value per slot. */
export function fill(
  template: string,
  values: Family["values"],
  next: () => number,
): { text: string; slots: Record<string, string> } {
  const slots: Record<string, string> = {};
  for (const [slot, options] of Object.entries(values)) {
    slots[slot] = options[Math.floor(next() * options.length)] as string;
  }
  return { text: template.replace(/\{(\w+)\}/g, (_, slot: string) => slots[slot] ?? slot), slots };
}
