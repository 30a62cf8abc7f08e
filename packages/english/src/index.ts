// The English rules of persona memory without a model: first-person facts and corrections, read by
// pattern rules over clauses. The engine reaches them only through the Extractor port (`offlineExtractor`);
// another language is another extractor.
export { offlineExtractor } from "./offline-extractor.js";
