import { describeConformance } from "./describe-conformance.js";

describeConformance("vectorSearch in a large scope");
