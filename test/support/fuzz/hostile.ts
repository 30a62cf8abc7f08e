import fc from "fast-check";

/** Users the fuzzed calls name most of the time, so valid calls meet stored data. */
export const USERS = ["ana", "bo"] as const;

/** Just over the 1 MiB message limit, built once. */
const OVER_LIMIT = "x".repeat(1_048_577);

/** Strings chosen to break parsers, SQL, FTS5 syntax, JSON and prototypes. */
const NASTY = [
  "",
  " ",
  "\t\n",
  "\u0000",
  "\uD800",
  "\uFEFF",
  "'; DROP TABLE memories; --",
  '"',
  "*",
  'NEAR("a" "b")',
  "body:secret",
  "a OR b AND NOT c",
  "rowid:1",
  "%_",
  "__proto__",
  "constructor",
  "toString",
  "../../../etc/passwd",
  "2026-02-30T25:61:00Z",
  "1970-01-01T00:00:00Z",
  "-1",
  "NaN",
  "e".repeat(300),
  "💥".repeat(50),
] as const;

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 1, arbitrary: fc.constant(OVER_LIMIT) },
);

/** Any JSON-ish or JavaScript value, hostile strings and numbers included. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  {
    weight: 2,
    arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 1e308, Number.NaN, Infinity)),
  },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, true, false) },
  { weight: 1, arbitrary: fc.date({ noInvalidDate: false }) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2, maxKeys: 4 }) },
);

/** Mostly a plausible value, sometimes a hostile one, sometimes absent. */
export function field<T>(plausible: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: plausible },
    { weight: 3, arbitrary: hostileValue },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

export const userId = field(fc.constantFrom<string>(...USERS));
export const words = fc
  .array(fc.constantFrom("lantern", "harbour", "piano", "winter", "coffee", "train", "my", "sister"), {
    minLength: 1,
    maxLength: 6,
  })
  .map((w) => w.join(" "));

/** An object with these fields, each maybe missing, plus sometimes an unexpected extra key. */
export function input(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.record(fields, { requiredKeys: [] }) },
    { weight: 1, arbitrary: fc.tuple(fc.record(fields), hostileString, hostileValue).map(withExtra) },
    { weight: 1, arbitrary: hostileValue },
  );
}

function withExtra([base, key, value]: [Record<string, unknown>, string, unknown]): Record<string, unknown> {
  return { ...base, [key]: value };
}
