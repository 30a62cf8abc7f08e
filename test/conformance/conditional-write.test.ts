import { describeConformance } from "./describe-conformance.js";

describeConformance("conditional write");
