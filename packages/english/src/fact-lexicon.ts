/**
 * Word lists for the rule-based fact extractor. Closed lists keep precision high: "I'm a big fan" must not
 * become an occupation, "I'm Canadian" must not become a name.
 */

const words = (list: string): Set<string> => new Set(list.trim().split(/\s+/));

/** Head nouns of occupations ("software engineer" has the head "engineer"). */
export const OCCUPATIONS = words(`
  accountant actor actress administrator analyst anesthesiologist animator archaeologist architect artist
  assistant astronaut astronomer attendant attorney auditor author baker banker barber barista bartender biologist
  bookkeeper broker builder butcher captain carpenter cashier caregiver ceo cfo chef chemist chiropractor
  cleaner clerk coach coder composer consultant contractor coo copywriter counselor counsellor courier cto
  curator dancer dentist designer detective developer dietitian dietician director doctor driver economist
  editor educator electrician engineer entrepreneur epidemiologist farmer filmmaker firefighter fisherman
  freelancer gardener geologist guard guide hairdresser historian hygienist illustrator instructor intern
  interpreter investor janitor jeweler journalist judge landscaper lawyer lecturer librarian lifeguard linguist
  locksmith machinist manager marketer mathematician mechanic medic midwife miner musician
  neurologist nurse nutritionist officer optometrist painter paralegal paramedic pastor pediatrician
  pharmacist philosopher photographer physician physicist physiotherapist pilot plumber poet policeman
  policewoman politician practitioner priest principal producer professor programmer psychiatrist psychologist publisher
  rabbi radiologist realtor receptionist recruiter reporter researcher sailor salesman saleswoman salesperson
  scientist screenwriter secretary senator sergeant singer soldier statistician stylist supervisor surgeon
  surveyor tailor teacher technician therapist trader translator tutor veterinarian vet waiter waitress
  welder worker writer zoologist specialist strategist underwriter founder cofounder
  co-founder president vp executive student
  gp nun monk vicar priest chaplain imam minister cook nanny childminder carer caretaker porter postman postwoman
  plasterer roofer decorator bricklayer joiner labourer glazier upholsterer seamstress cobbler potter sculptor
  ceramicist jeweller goldsmith watchmaker florist fishmonger grocer shopkeeper beekeeper brewer sommelier barman
  bouncer croupier dj presenter broadcaster comedian magician influencer streamer youtuber vlogger blogger
  podcaster tattooist actuary treasurer coordinator adviser advisor aide tester sysadmin technologist
  pathologist anaesthetist anesthetist sonographer radiographer physio osteopath podiatrist optician dermatologist
  cardiologist oncologist psychotherapist doula solicitor barrister notary magistrate constable inspector warden
  ranger forester shepherd archivist proofreader columnist correspondent videographer cameraman drummer guitarist
  bassist violinist pianist cellist conductor organist vocalist songwriter choreographer athlete footballer
  cricketer golfer jockey referee umpire trainer masseuse masseur beautician manicurist telemarketer merchandiser
  dispatcher valuer auctioneer landlord landlady foreman trucker cabbie chauffeur concierge housekeeper steward
  stewardess headteacher headmaster headmistress dean postdoc diplomat ambassador councillor mp surveyor planner
  firefighter fireman cop paramedic dispatcher pharmacist lifeguard warehouseman
`);

/** Modifiers that turn an occupation noun into an opinion or a past ("a terrible cook", "a former nurse"). */
export const NON_JOB_MODIFIERS = words(`
  big huge good great bad terrible awful decent amateur aspiring wannabe avid keen proud natural born total real
  bit little former ex future hobby weekend lot not pretty true fellow fan self-proclaimed wonderful amazing
  horrible lousy poor better best worst awesome happy sad lucky busy hard role
`);

/** Nationalities, faiths and identities: capitalised, but never a person's name after "I'm". */
export const NOT_NAMES = words(`
  american canadian mexican brazilian argentinian argentine colombian peruvian chilean cuban venezuelan german
  italian russian ukrainian indian pakistani iranian israeli egyptian nigerian kenyan ethiopian ghanaian
  australian korean mongolian indonesian malaysian filipino filipina thai vietnamese hungarian romanian
  bulgarian serbian croatian bosnian slovenian slovak czech austrian belgian norwegian swiss greek dutch
  french moroccan algerian tunisian lebanese syrian iraqi saudi emirati turkish armenian georgian persian
  asian european african latino latina latinx hispanic native jewish muslim christian catholic protestant
  buddhist hindu sikh atheist mormon baptist methodist lutheran orthodox agnostic black white gay lesbian bi
  trans queer british english irish scottish welsh spanish portuguese swedish danish finnish polish chinese
  japanese taiwanese icelandic estonian latvian lithuanian sorry ok okay fine good great here back home done
  sure glad happy not so also the a an i it this that monday tuesday wednesday thursday friday saturday sunday
  mr mrs ms dr prof sir
  january february march april june july august september october november december christmas vegan vegetarian
`);

/** Pet kinds, mapped to the value stored (a puppy is a dog). */
export const PETS: Readonly<Record<string, string>> = {
  dog: "dog",
  puppy: "dog",
  pup: "dog",
  cat: "cat",
  kitten: "cat",
  kitty: "cat",
  hamster: "hamster",
  rabbit: "rabbit",
  bunny: "rabbit",
  parrot: "parrot",
  budgie: "budgie",
  bird: "bird",
  fish: "fish",
  goldfish: "goldfish",
  turtle: "turtle",
  tortoise: "tortoise",
  snake: "snake",
  lizard: "lizard",
  gecko: "gecko",
  "guinea pig": "guinea pig",
  horse: "horse",
  pony: "pony",
  ferret: "ferret",
  chinchilla: "chinchilla",
  hedgehog: "hedgehog",
  rat: "rat",
  mouse: "mouse",
  // Breeds name the kind: "my beagle Max" has a dog.
  beagle: "dog",
  greyhound: "dog",
  lurcher: "dog",
  labrador: "dog",
  lab: "dog",
  retriever: "dog",
  husky: "dog",
  poodle: "dog",
  cockapoo: "dog",
  labradoodle: "dog",
  terrier: "dog",
  spaniel: "dog",
  collie: "dog",
  dachshund: "dog",
  pug: "dog",
  corgi: "dog",
  chihuahua: "dog",
  rottweiler: "dog",
  doberman: "dog",
  boxer: "dog",
  bulldog: "dog",
  whippet: "dog",
  schnauzer: "dog",
  dalmatian: "dog",
  shepherd: "dog",
  doggo: "dog",
  tabby: "cat",
  siamese: "cat",
  persian: "cat",
  ragdoll: "cat",
  "maine coon": "cat",
  "bearded dragon": "bearded dragon",
  chicken: "chicken",
};

/** Family and relationship words, mapped to the slot prefix ("my mum" -> "mother"). */
export const RELATIVES: Readonly<Record<string, string>> = {
  sister: "sister",
  brother: "brother",
  mom: "mother",
  mum: "mother",
  mother: "mother",
  dad: "father",
  father: "father",
  son: "son",
  daughter: "daughter",
  wife: "partner",
  husband: "partner",
  partner: "partner",
  spouse: "partner",
  boyfriend: "partner",
  girlfriend: "partner",
  fiance: "partner",
  fiancé: "partner",
  fiancee: "partner",
  fiancée: "partner",
  grandma: "grandmother",
  grandmother: "grandmother",
  grandpa: "grandfather",
  grandfather: "grandfather",
  aunt: "aunt",
  uncle: "uncle",
  cousin: "cousin",
  niece: "niece",
  nephew: "nephew",
  stepmom: "stepmother",
  stepmum: "stepmother",
  "step-mom": "stepmother",
  "step-mum": "stepmother",
  stepdad: "stepfather",
  "step-dad": "stepfather",
};

/** Mutually exclusive diets: a new one supersedes the old. */
export const DIETS = words(
  "vegetarian vegan pescatarian pescetarian flexitarian keto paleo carnivore omnivore",
);

/** A marital status said in one word: "single", "married". */
export const MARITAL_STATUSES = "single married divorced widowed separated engaged".split(" ");

export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};

/**
 * Words that cannot start a preference, hobby or plan value: pronouns, determiners, question words and
 * verbs of perception ("I love how you explain", "I love hearing that").
 */
export const BAD_VALUE_START = words(`
  it its it's that this these those them they him her he she you your yours us we me my our his their theirs
  how what when where why who whom which whatever whenever everything anything something nothing everyone
  someone anyone all both each every some any no not never more most a an lot so such too very much many
  hearing seeing knowing getting having being talking chatting sharing feeling finding thinking telling
  receiving hear see know get have be talk chat share feel find think tell say said keep make let try need
  miss wait admit ask answer reply stop continue remember to as like with for of about from at in on by and or
  but if than then there here way idea fact thought
`);

/** Activities accepted after "I started", "I do", "I practice" (a closed list: "I started saving" is no hobby). */
export const HOBBIES = words(`
  yoga pilates running jogging swimming cycling biking hiking climbing bouldering painting drawing knitting
  crocheting sewing baking cooking gardening dancing singing writing journaling meditating meditation surfing
  skiing skating skateboarding snowboarding boxing fishing camping photography reading weightlifting lifting
  rowing kayaking canoeing sailing golf golfing woodworking birdwatching volunteering pottery karate judo
  taekwondo kickboxing jiu-jitsu fencing archery chess tennis soccer football basketball baseball volleyball
  badminton guitar piano violin drums cello ukulele crossfit calligraphy origami embroidery quilting
  scrapbooking gaming coding programming hunting horseback horse sketching sculpting ballet salsa tango
  martial aikido kung parkour triathlons marathons running parkrun zumba spin five-a-side netball rugby squash
  padel pickleball cricket hockey crochet knitting bowling bouldering
`);

/** Verbs after "I am learning to" that name a skill ("learning to accept myself" is not a hobby). */
export const SKILL_VERBS = words(`
  play paint draw cook bake code program swim ski surf dance sing knit sew drive skate snowboard climb sail fly
  ride crochet garden speak read write box fence sculpt juggle skateboard
`);

const MONTHS = "january february march april may june july august september october november december";
const DAYS = "monday tuesday wednesday thursday friday saturday sunday";
const UNITS = "week weekend month year summer spring fall autumn winter semester";

/** Capitalised words that are never place or organisation names on their own. */
export const NOT_PLACES = words(`${MONTHS} ${DAYS} i the a an my christmas easter thanksgiving`);

const alt = (list: string) => list.split(" ").join("|");

/** A time phrase that marks a statement as a plan ("next month", "in June", "tomorrow"). */
export const FUTURE_TIME = new RegExp(
  `\\b(?:next (?:${alt(`${UNITS} ${DAYS}`)})|tomorrow|tonight|soon|this (?:${alt(UNITS)})|later this (?:${alt(UNITS)})|` +
    `in (?:${alt(MONTHS)})|on (?:${alt(DAYS)})|in (?:a|an|one|two|three|a few|a couple of|\\d+) (?:days?|weeks?|months?|years?)|` +
    `over the (?:weekend|holidays|summer|break))\\b`,
  "i",
);

/** Fields of study by the short names people use ("compsci", "a medical student"). */
export const FIELD_NAMES: Readonly<Record<string, string>> = {
  compsci: "computer science",
  "comp sci": "computer science",
  cs: "computer science",
  "vet med": "veterinary medicine",
  "vet medicine": "veterinary medicine",
  med: "medicine",
  ppe: "philosophy, politics and economics",
  mba: "business administration",
  "poli sci": "political science",
  polisci: "political science",
  econ: "economics",
  psych: "psychology",
  maths: "mathematics",
  math: "mathematics",
  pe: "physical education",
  ee: "electrical engineering",
  "mech eng": "mechanical engineering",
  acounting: "accounting",
  medical: "medicine",
  dental: "dentistry",
  vet: "veterinary medicine",
  veterinary: "veterinary medicine",
  nursing: "nursing",
  pharmacy: "pharmacy",
};
