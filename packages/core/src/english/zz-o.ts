import { offlineExtractor } from "./offline-extractor.js";

for (const s of process.argv.slice(2)) {
  const facts = await offlineExtractor.persona(
    [
      {
        id: "m",
        userId: "u",
        kind: "message",
        tier: "short",
        text: s,
        role: "user",
        metadata: {},
        createdAt: "",
        updatedAt: "",
      } as never,
    ],
    [],
  );
  console.log(
    s,
    "=>",
    facts.map((f) => `${f.slot}=${f.value}${f.negated ? "(neg)" : ""}`),
  );
}
