import { ruleTable } from "./rules/rule-table.ts";
import { isFreeMailDomain } from "./security/advance-fee.ts";
import { domainOfAddress, registrableDomain } from "./security/domains.ts";

const rules = ruleTable("trade");
/** A trade's words (a family of trade.rules) as one alternation. */
const tradeWords = (trade: string) => rules.phrases(trade).join("|");

/**
 * The reader's trade, read from the name of their organisation's domain ("ashgrove-primary.org.uk"
 * is a school, "larchfield-vets.co.uk" a vet practice). Words that tell of private life for most
 * people ("school", "your dog", "boiler", "wedding") are the daily work of people in one trade:
 * for a school's business manager a mail about a class trip is work, for a vet's receptionist a
 * client's "your dog" is. Decision 0043.
 */
interface Trade {
  /** Words of the domain's name that say the trade (whole words, or the end of a fused name). */
  names: string[];
  /** Private-life words that are this trade's own subject matter. */
  words: string;
}

const TRADES: Trade[] = [
  {
    names: ["school", "schools", "primary", "academy", "college", "sch", "ac", "edu", "infants", "juniors"],
    words: tradeWords("school"),
  },
  {
    names: ["nursery", "nurseries", "childcare", "daycare", "creche", "playgroup", "preschool", "montessori"],
    words: tradeWords("nursery"),
  },
  {
    names: ["vet", "vets", "veterinary", "animal", "animals", "pets", "petcare", "kennels", "cattery"],
    words: tradeWords("vet"),
  },
  {
    names: [
      "lettings",
      "letting",
      "lets",
      "estates",
      "estate",
      "property",
      "properties",
      "homes",
      "housing",
      "realty",
    ],
    words: tradeWords("lettings"),
  },
  {
    names: [
      "construction",
      "builders",
      "building",
      "plumbing",
      "heating",
      "electrical",
      "electrics",
      "roofing",
      "joinery",
      "decorating",
      "kitchens",
      "bathrooms",
      "renovations",
      "maintenance",
      "architects",
      "architecture",
    ],
    words: tradeWords("construction"),
  },
  {
    names: [
      "health",
      "healthcare",
      "medical",
      "clinic",
      "surgery",
      "dental",
      "dentist",
      "dentistry",
      "physio",
      "physiotherapy",
      "pharmacy",
      "chemist",
      "nhs",
      "hospital",
      "opticians",
    ],
    words: tradeWords("health"),
  },
  {
    names: ["insurance", "insurers", "insurer", "assurance", "mutual", "underwriting", "underwriters"],
    words: tradeWords("insurance"),
  },
  {
    names: [
      "hotel",
      "hotels",
      "restaurant",
      "cafe",
      "bakery",
      "catering",
      "caterers",
      "events",
      "venue",
      "weddings",
      "pub",
      "inn",
      "brewery",
      "bistro",
    ],
    words: tradeWords("hospitality"),
  },
  {
    names: [
      "gym",
      "fitness",
      "sports",
      "sport",
      "leisure",
      "athletic",
      "athletics",
      "fc",
      "rfc",
      "golf",
      "tennis",
      "climbing",
      "yoga",
      "pilates",
      "harriers",
      "sc",
      "swimming",
      "runners",
    ],
    words: tradeWords("sport"),
  },
  {
    names: ["it", "ict", "tech", "technology", "computers", "computing", "networks", "itsupport", "helpdesk"],
    words: tradeWords("it-support"),
  },
  {
    names: ["travel", "tours", "holidays", "trips", "cruises", "voyages"],
    words: tradeWords("travel"),
  },
  {
    names: [
      "garden",
      "gardens",
      "gardening",
      "plants",
      "horticulture",
      "landscaping",
      "landscapes",
      "florist",
      "flowers",
    ],
    words: tradeWords("garden"),
  },
  {
    names: ["motors", "motor", "cars", "garage", "autos", "auto", "automotive", "tyres", "vehicles"],
    words: tradeWords("motors"),
  },
  {
    names: [
      "salon",
      "salons",
      "hair",
      "hairdressing",
      "hairdressers",
      "beauty",
      "barber",
      "barbers",
      "barbershop",
      "nails",
      "spa",
      "aesthetics",
      "lashes",
      "brows",
    ],
    words: tradeWords("salon"),
  },
  {
    names: [
      "theatre",
      "theater",
      "cinema",
      "music",
      "arts",
      "gallery",
      "museum",
      "festival",
      "playhouse",
      "opera",
      "tickets",
    ],
    words: tradeWords("arts"),
  },
];

const memo = new Map<string, RegExp | null>();

/** The user's organisation domains: those of their own addresses, free-mail providers aside. */
export function ownOrganisationDomains(addresses: readonly string[]): string[] {
  const domains = addresses.map((a) => registrableDomain(domainOfAddress(a))).filter(Boolean);
  return [...new Set(domains)].filter((d) => !isFreeMailDomain(d));
}
const TRADE_NAMES = new Set(TRADES.flatMap((t) => t.names));

/**
 * The name of the reader's organisation as people write it: the first word of its domain
 * ("ashgrove" of ashgrove-primary.org.uk), when it is long enough to be a name and is not a trade.
 */
export function readersOrganisationNames(userAddresses: readonly string[]): string[] {
  return ownOrganisationDomains(userAddresses)
    .map((d) => withoutTradeEnding(d.split(/[^a-z]+/)[0] ?? ""))
    .filter((w) => w.length >= 5 && !TRADE_NAMES.has(w));
}

/** A name fused with its trade ("fellsidephysio") as people write it ("Fellside"). */
function withoutTradeEnding(word: string): string {
  for (const name of TRADE_NAMES) {
    if (fusedEnding(word, name) && word.length - name.length >= 5) return word.slice(0, -name.length);
  }
  return word;
}

/**
 * A trade ending a fused name: five letters or more ("oakleafgardens"), or four after a name of
 * five or more ("kirkbyvets"), never a short word's tail ("covet", "summit").
 */
function fusedEnding(word: string, name: string): boolean {
  if (!word.endsWith(name) || word === name) return false;
  return name.length >= 5 || (name.length === 4 && word.length - name.length >= 5);
}

// Suffix labels that say a trade ("ox.ac.uk", "harvard.edu"); any other suffix says a country or
// nothing ("azienda.it" is Italian, not an IT company; ".tech" and ".sc" are open to anyone).
const SUFFIX_TRADE_LABELS = new Set(["ac", "sch", "edu", "nhs"]);

/** The words of a registrable domain that can name a trade: its name's words and a trade suffix. */
function domainWords(domain: string): string[] {
  const [name = "", ...suffix] = domain.split(".");
  return [...name.split(/[^a-z]+/), ...suffix.filter((l) => SUFFIX_TRADE_LABELS.has(l))].filter(Boolean);
}

function tradesOf(domain: string): Trade[] {
  const words = domainWords(domain);
  return TRADES.filter((t) => t.names.some((name) => words.some((w) => w === name || fusedEnding(w, name))));
}

/**
 * The private-life words that are the reader's work, as one pattern; null when no address of the
 * reader names a trade (free mail, or an organisation whose name does not say what it does).
 */
export function readersTradeWords(userAddresses: readonly string[]): RegExp | null {
  const domains = ownOrganisationDomains(userAddresses);
  const key = domains.join(" ");
  const known = memo.get(key);
  if (known !== undefined) return known;
  const trades = [...new Set(domains.flatMap(tradesOf))];
  const pattern =
    trades.length === 0 ? null : new RegExp(`\\b(${trades.map((t) => t.words).join("|")})\\b`, "i");
  if (memo.size > 100) memo.clear();
  memo.set(key, pattern);
  return pattern;
}

/**
 * Whether the sender's domain names a trade the reader is not in (a vet practice, a football
 * club, a garage writing to a physio's manager): for that reader the sender is a provider or a
 * club of their private life. Free mail and the reader's own trades name nothing.
 */
export function sendersOtherTrade(fromDomain: string, userAddresses: readonly string[]): boolean {
  const domain = registrableDomain(fromDomain);
  if (!domain || isFreeMailDomain(domain)) return false;
  const own = new Set(ownOrganisationDomains(userAddresses).flatMap(tradesOf));
  return tradesOf(domain).some((t) => !own.has(t));
}

// Words a business domain carries that say nothing of what the business does.
const GENERIC_DOMAIN_WORDS = new Set([
  "group",
  "services",
  "service",
  "solutions",
  "consulting",
  "consultancy",
  "partners",
  "associates",
  "holdings",
  "limited",
  "global",
  "international",
  "online",
  "digital",
  "media",
  "systems",
  "company",
  "works",
  "world",
  "house",
  "ventures",
]);

const businessMemo = new Map<string, RegExp | null>();

/**
 * What the reader's business says it is, in its own domain ("ashcombepianos" is about pianos,
 * "tregarthendairy" about a dairy, "harbourline-freight" about freight): a word after the first
 * in a hyphenated name, or the end of a fused one after a name of four letters or more. People
 * who write about that thing write to the reader's business. Global, for counting.
 */
export function readersBusinessWords(userAddresses: readonly string[]): RegExp | null {
  const domains = ownOrganisationDomains(userAddresses);
  const key = domains.join(" ");
  const known = businessMemo.get(key);
  if (known !== undefined) return known;
  const words = new Set<string>();
  for (const domain of domains) {
    const [first = "", ...rest] = (domain.split(".")[0] ?? "").split(/[^a-z]+/);
    for (const w of rest) if (w.length >= 4) words.add(w);
    for (let cut = 4; first.length - cut >= 5; cut++) words.add(first.slice(cut));
  }
  const stems = [...words].filter((w) => !GENERIC_DOMAIN_WORDS.has(w)).map((w) => w.replace(/s$/, ""));
  const pattern = stems.length === 0 ? null : new RegExp(`\\b(${[...new Set(stems)].join("|")})s?\\b`, "gi");
  if (businessMemo.size > 100) businessMemo.clear();
  businessMemo.set(key, pattern);
  return pattern;
}
