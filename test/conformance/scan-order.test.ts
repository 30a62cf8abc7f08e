import { describeConformance } from "./describe-conformance.js";

describeConformance("scan order and pagination");
