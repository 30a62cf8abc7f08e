export { defaultTokenizer, type Tokenizer } from "./tokenizer.js";
