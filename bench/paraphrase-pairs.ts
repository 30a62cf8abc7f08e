/**
 * Twenty things a user might say, each with a question that asks for it in other words (few shared
 * words), for checking whether an embedder finds memories by meaning. Small and hand-made: indicative only.
 */
export const PARAPHRASE_PAIRS: readonly { readonly memory: string; readonly query: string }[] = [
  {
    memory: "My sister just had twins, a boy and a girl.",
    query: "did anyone in the family have babies recently",
  },
  { memory: "I can't eat shellfish, I break out in hives.", query: "food allergies" },
  { memory: "We moved from Chicago to Lisbon in March.", query: "which city does the user live in now" },
  {
    memory: "I've been learning to play the cello for two years.",
    query: "what musical instrument do they practise",
  },
  { memory: "My manager promoted me to team lead yesterday.", query: "career advancement" },
  { memory: "I run five kilometres every morning before breakfast.", query: "daily exercise routine" },
  { memory: "Our cat Miso is fourteen and has kidney trouble.", query: "pet health problems" },
  { memory: "I'm saving up to buy a small flat next year.", query: "plans to purchase property" },
  { memory: "I quit smoking three months ago and feel much better.", query: "gave up cigarettes" },
  { memory: "My daughter starts kindergarten in September.", query: "child beginning school" },
  { memory: "I prefer tea over coffee, especially green tea.", query: "favourite hot drink" },
  { memory: "I broke my wrist skiing in the Alps last winter.", query: "injury on a mountain holiday" },
  { memory: "I volunteer at the animal shelter on Saturdays.", query: "weekend charity work" },
  { memory: "My grandfather passed away in January.", query: "death of a relative" },
  { memory: "I'm allergic to penicillin.", query: "which antibiotics to avoid" },
  {
    memory: "We're planning a road trip through Norway in the summer.",
    query: "upcoming vacation in Scandinavia",
  },
  { memory: "I've been feeling anxious and can't sleep well lately.", query: "insomnia and stress" },
  { memory: "I got my driving licence on the second attempt.", query: "passed the road test" },
  { memory: "My husband and I are celebrating our tenth anniversary.", query: "married for a decade" },
  { memory: "I write Python at my job but enjoy Rust on weekends.", query: "programming languages they use" },
];
