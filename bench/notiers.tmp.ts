import { evalLocomo } from "@engram/cli/locomo";
const r = await evalLocomo({ dataPath: "../../shared/data/locomo/locomo-dev.json", dbPath: "/tmp/notiers.db", ks: [10], tiers: false });
console.log(JSON.stringify(r.recall), JSON.stringify(r.tiers));
