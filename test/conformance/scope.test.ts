import { describeConformance } from "./describe-conformance.js";

describeConformance("scope enforcement");
