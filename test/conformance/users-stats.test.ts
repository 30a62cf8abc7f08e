import { describeConformance } from "./describe-conformance.js";

describeConformance("users and stats");
