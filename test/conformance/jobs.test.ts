import { describeConformance } from "./describe-conformance.js";

describeConformance("jobs");
