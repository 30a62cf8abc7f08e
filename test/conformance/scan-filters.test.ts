import { describeConformance } from "./describe-conformance.js";

describeConformance("scan filters");
