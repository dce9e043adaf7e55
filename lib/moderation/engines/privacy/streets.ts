import { longestOfOverlapping, NAME_START, NAME_WORD, withoutLeadingWords, type Finding } from './pattern'

/**
 * Streets and street addresses, which spaCy (Presidio's NER) reads as places and compromise mostly does not: a name
 * with the word for a street after it ("Elm Street", "5th Avenue", "221B Baker Street"), before it as Romance languages
 * write it ("Rue de Rivoli", "Calle Mayor 5", "9 Rue des Martyrs"), or run into it as Germanic languages write it
 * ("Hauptstraße 12", "Karl-Marx-Allee"). A house number before or after belongs to the address.
 */

const STREET_SCORE = 0.85

const HOUSE_NUMBER = '\\d{1,5}[A-Za-z]?'
const ORDINAL = '\\d{1,3}(?:st|nd|rd|th)'
/** The lower-case words inside Romance and Germanic street names ("Rue de la Paix", "Via del Corso"). */
const PARTICLE = "(?:(?:de|du|des|del|della|delle|dei|degli|di|da|do|dos|das|la|le|les|los|las|y|e|von|van|der|den) |l['’])"
/** At most three particles before a name word ("Rue de la Paix"); each but an elided "l'" ends at a space, so a run of
 * them reads one way only (an optional space let "delladella..." split 2^n ways). */
const PARTICLES = `${PARTICLE}{0,3}`

/** Words for a street that end its name in English, whatever comes before them, and their postal abbreviations. */
const STREET_AFTER =
  'Street|St\\.?|Avenue|Ave\\.?|Road|Rd\\.?|Boulevard|Blvd\\.?|Lane|Ln\\.?|Drive|Parkway|Pkwy\\.?|Highway|Hwy\\.?|Expressway|Expy\\.?|Terrace|Crescent|Prospekt|Prospect'
/** Words that end a street's name only after a house number: alone they are as often something else ("the Supreme
 * Court", "Dr." before a name). */
const STREET_AFTER_WITH_NUMBER = 'Way|Place|Pl\\.?|Court|Ct\\.?|Close|Square|Sq\\.?|Row|Walk|Grove|Gardens|Mews|Hill|Gate|Dr\\.?|Ter\\.?|Circle|Cir\\.?|Loop|Trail'
/** A compass point between the house number and the name ("350 W 31st St", "1208 NW Glisan St"). */
const DIRECTION = '(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)\\.?'
/** Words for a street that open its name in Romance and Slavic languages. */
const STREET_BEFORE =
  'Rue|Avenue|Boulevard|Calle|Avenida|Via|Viale|Piazza|Piazzale|Corso|Largo|Rua|Praça|Travessa|Plaza|Paseo|Carrer|Place|Quai|Chemin|Allée|Impasse|Ulica|Ulitsa'
/** Endings of street names written as one word in German, Dutch and Swedish ("Lindenstraße", "Keizersgracht", "Drottninggatan"). */
const STREET_ENDING = '(?:[Ss]tra(?:ß|ss)e|[Ss]tr\\.|[Ww]eg|[Gg]asse|[Pp]latz|[Aa]llee|[Dd]amm|[Uu]fer|[Ss]traat|[Ll]aan|[Gg]racht|[Gg]atan|[Vv]ägen)'
/** Capitalised words that open a sentence or a phrase before a street, not part of its name. */
const NOT_A_NAME = new Set(['The', 'On', 'In', 'At', 'To', 'From', 'Along', 'Down', 'Up', 'Near', 'Past', 'Off', 'Onto', 'Into', 'By', 'Of', 'And', 'Or', 'Meet', 'Take', 'Turn'])

// Each pattern starts only at NAME_START; the compound pattern only where no word or hyphen goes before it.
const STREET_PATTERNS = [
  // "221B Baker Street", "5th Avenue", "1600 Amphitheatre Parkway", "Queen's Gate Terrace"
  new RegExp(`${NAME_START}(?:${HOUSE_NUMBER} (?:${DIRECTION} )?)?(?:${ORDINAL}|${NAME_WORD})(?: ${NAME_WORD}){0,2} (?:${STREET_AFTER})(?![\\p{L}\\p{N}])`, 'gu'),
  // "42 Wallaby Way", "3 Riverside Court"
  new RegExp(`${NAME_START}${HOUSE_NUMBER} (?:${DIRECTION} )?(?:${ORDINAL}|${NAME_WORD})(?: ${NAME_WORD}){0,2} (?:${STREET_AFTER_WITH_NUMBER})(?![\\p{L}\\p{N}])`, 'gu'),
  // "Rue de Rivoli", "9 Rue des Martyrs", "Calle de Serrano 75", "Avenida Paulista 1578"
  new RegExp(
    `${NAME_START}(?:${HOUSE_NUMBER},? )?(?:${STREET_BEFORE}) ${PARTICLES}${NAME_WORD}(?: ${PARTICLES}${NAME_WORD}){0,3}(?:,? ${HOUSE_NUMBER}(?![\\p{L}\\p{N}]))?(?![\\p{L}\\p{N}])`,
    'gu',
  ),
  // "Hauptstraße 12", "Karl-Marx-Allee", "Kastanienallee 9"
  // (a name of at most 40 letters before the ending, so that a long run of letters is read in linear time)
  new RegExp(`(?<![\\p{L}\\p{N}-])\\p{Lu}[\\p{L}\\p{M}-]{1,40}?${STREET_ENDING}(?: ${HOUSE_NUMBER}(?![\\p{L}\\p{N}]))?(?![\\p{L}\\p{N}])`, 'gu'),
]

/** A street compound's ending alone ("Lindenstraße" has no space but is a street). */
const HAS_STREET_ENDING = new RegExp(STREET_ENDING, 'u')

/** "John St. Clair": a name and "St." with a capitalised word after and no house number before is a person named for
 * a saint, or "St." opens the next sentence's place ("Elm St. St. Louis..."); a street has a number or no such word. */
const SAINT_AFTER = /^\.? \p{Lu}/u

export function streetAddresses(text: string): Finding[] {
  const found: Finding[] = []
  for (const pattern of STREET_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const finding = withoutLeadingWords(text, { type: 'LOCATION', begin: match.index, end: match.index + match[0].length, score: STREET_SCORE }, NOT_A_NAME)
      // A street word alone is no street ("Avenue", "Rue"): a name must remain beside it.
      if (!/\s/u.test(text.slice(finding.begin, finding.end)) && !HAS_STREET_ENDING.test(text.slice(finding.begin, finding.end))) continue
      const saint = /^(\S+) St\.?$/u.exec(text.slice(finding.begin, finding.end))
      if (saint && /^\p{Lu}/u.test(saint[1]!) && SAINT_AFTER.test(text.slice(finding.end - (text[finding.end - 1] === '.' ? 1 : 0), finding.end + 3))) continue
      found.push(finding)
    }
  }
  return longestOfOverlapping(found)
}

/** The states, district and territories of the United States, and the provinces and territories of Canada, by their
 * postal codes: written after a town and a comma ("Springfield, IL 62704", "Calgary, AB T2P 1J9"). */
const NORTH_AMERICAN_CODES = new Set(
  ('AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC ' +
    'SD TN TX UT VT VA WA WV WI WY DC PR GU VI AS MP AB BC MB NB NL NS NT NU ON PE QC SK YT').split(' '),
)
/** A US ZIP code or a Canadian postal code. */
const NORTH_AMERICAN_POSTCODE = '\\d{5}(?:-\\d{4})?|[A-Z]\\d[A-Z] ?\\d[A-Z]\\d'
/** Australia's states and territories, written after a town with or without a comma ("Sydney NSW 2000"). */
const AUSTRALIAN_CODES = 'NSW|VIC|QLD|WA|SA|TAS|ACT|NT'
/** The end of a phrase, where a code with no postcode after it may stand. */
const PHRASE_END = '(?=[.,;:)!?]|\\s*$|\\n)'
const TOWN = `(${NAME_WORD}(?: ${NAME_WORD}){0,2})`
/** A town's name, its region's code and then a postcode or the end of a phrase: "Boulder, CO 80302", "Austin, TX.",
 * "Halifax, NS", "Melbourne VIC 3000". */
const TOWN_AND_REGION = [
  new RegExp(`${NAME_START}${TOWN},[ \\t]?([A-Z]{2})(?:([ \\t]+(?:${NORTH_AMERICAN_POSTCODE}))(?![\\p{L}\\p{N}])|${PHRASE_END})`, 'gu'),
  new RegExp(`${NAME_START}${TOWN},?[ \\t]+(${AUSTRALIAN_CODES})(?:([ \\t]+\\d{4})(?![\\p{L}\\p{N}])|${PHRASE_END})`, 'gu'),
]
/** Capitalised words that open a phrase before a town ("Visit Austin, TX"). */
const NOT_A_TOWN = new Set([...NOT_A_NAME, 'Visit', 'See', 'Dear', 'Hi', 'Hello', 'Thanks', 'Welcome', 'Deliver', 'Ship', 'Send', 'Mail'])

/**
 * Towns with the code of a US state, a Canadian province or an Australian state after them, both places: "Redwood
 * City, CA 94065", "Calgary, AB T2P 1J9", "Sydney NSW 2000", "Cambridge, MA.". Without a comma and a postcode `isTown`
 * must say the name is a town (the gazetteer's, or after an address): "Hi John, OK." and "Thanks Bob, NY." name no town.
 */
export function townsAndStates(text: string, isTown: (town: Finding) => boolean): Finding[] {
  const found: Finding[] = []
  for (const [index, pattern] of TOWN_AND_REGION.entries()) {
    for (const match of text.matchAll(pattern)) {
      const [, name, code, postcode] = match
      if (index === 0 && !NORTH_AMERICAN_CODES.has(code!)) continue
      const town = withoutLeadingWords(text, { type: 'LOCATION', begin: match.index, end: match.index + name!.length, score: STREET_SCORE }, NOT_A_TOWN)
      if (town.begin >= town.end || NOT_A_TOWN.has(text.slice(town.begin, town.end))) continue
      // Without a comma, an Australian code and postcode are as often a product and a year ("Windows NT 4000",
      // "Nestlé SA 2023"): the name must then be a town by itself.
      const comma = text[match.index + name!.length] === ','
      if (!(postcode && comma) && !isTown(town)) continue
      const codeBegin = match.index + match[0].length - (postcode?.length ?? 0) - code!.length
      found.push(town, { type: 'LOCATION', begin: codeBegin, end: codeBegin + code!.length, score: STREET_SCORE })
    }
  }
  return longestOfOverlapping(found)
}

/** "PO Box 1234, Austin": a post-office box, whose town follows its comma as a street's does. */
export const PO_BOX_BEFORE = /(?:^|[^\p{L}])P\.?\s?O\.?\s+Box\s+\d{1,6},\s*$/iu
