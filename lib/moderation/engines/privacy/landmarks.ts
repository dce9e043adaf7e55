import { longestOfOverlapping, NAME_START, NAME_WORD, withoutLeadingWords, type Finding } from './pattern'

/**
 * Natural features and facilities, which spaCy (Presidio's NER) reads as places (its LOC and FAC, both Presidio's
 * LOCATION) and compromise often cuts or widens: a name with the word for what it is after it ("Lake Tahoe" aside:
 * "Colorado River", "Heathrow Airport", "Golden Gate Bridge", "Leaning Tower of Pisa"), or before it ("Mount Rainier",
 * "Mt. Hood", "Lake Geneva", "Cape Cod", "Isle of Skye", "Gulf of Mexico"). Towns are the gazetteer's; streets are
 * streets.ts's.
 */

const LANDMARK_SCORE = 0.85

const END = '(?![\\p{L}\\p{N}])'

/**
 * Words that end a feature's or facility's name. Left out: words as often a product's or a method's as a place's
 * ("Random Forest", "Price Range"), a channel (more often on television than at sea), and buildings that spaCy reads as organisations (hospitals, universities).
 */
const KIND_AFTER =
  'Airport|Bridge|Station|Park|Tower|Square|River|Mountains?|Bay|Desert|Ocean|Sea|Canyon|Valley|Falls|Lake|Islands?|Peninsula|Glacier|Harbou?r|Strait|Creek|Hills|Volcano'
/** Words that open one ("Mount Rainier", "Isle of Skye"). */
const KIND_BEFORE = 'Mount|Mt\\.|Lake|Cape|Isle of|Gulf of|Bay of|Sea of|Straits? of|Lake of'

/** Capitalised words that open a sentence or a phrase before a name, not part of it ("Visit Central Park"). */
const NOT_A_NAME = new Set([
  'The', 'A', 'An', 'On', 'In', 'At', 'To', 'From', 'Along', 'Down', 'Up', 'Near', 'Past', 'Off', 'Onto', 'Into', 'By',
  'Of', 'And', 'Or', 'Over', 'Under', 'Across', 'Beyond', 'Toward', 'Towards', 'Behind', 'Above', 'Below', 'Around',
  'Outside', 'Inside', 'Beside', 'Between', 'Through', 'Visit', 'See', 'Meet', 'Take', 'Turn', 'Go', 'Walk', 'Drive',
  'Fly', 'Head', 'Cross', 'Leave', 'Reach', 'Explore', 'Enjoy', 'Climb', 'Hike', 'Swim', 'Welcome', 'Our', 'My', 'Your',
  'Their', 'His', 'Her', 'Its', 'This', 'That', 'Every', 'Each',
])

// "Mount Rainier", "Mt. Hood", "Isle of Skye", "Gulf of Mexico", "Cape Cod"
const KIND_FIRST = new RegExp(`${NAME_START}(?:${KIND_BEFORE}) (?:the )?${NAME_WORD}(?: ${NAME_WORD})?${END}`, 'gu')

const LANDMARK_PATTERNS = [
  // "Colorado River", "Golden Gate Bridge", "Leaning Tower of Pisa", "Bay of Biscay" is the next pattern's
  new RegExp(`${NAME_START}${NAME_WORD}(?: ${NAME_WORD}){0,2} (?:${KIND_AFTER})(?: of (?:the )?${NAME_WORD})?${END}`, 'gu'),
  KIND_FIRST,
]

/** Where a kind word is left with no name beside it ("The Bridge", "Visit Park"), there is no landmark. */
const KIND_ALONE = new RegExp(`^(?:${KIND_AFTER}|${KIND_BEFORE})$`, 'u')

/** Kind words that are also surnames: after a lone given name they end a person's name ("Michael Bay", "Ricki Lake",
 * "Jimin Park"), not a place's. */
const SURNAME_KINDS = new Set(['Bay', 'Lake', 'Park', 'Hills', 'Tower', 'Rivers'])

/** Whether `name` is a lone given name and a kind word that is also a surname ("Michael Bay"): a person's name. */
export function namesAPerson(name: string, isGivenName: (word: string) => boolean): boolean {
  const words = name.split(' ')
  return words.length === 2 && SURNAME_KINDS.has(words[1]!) && isGivenName(words[0]!)
}

/** Landmarks in `text`; `isGivenName` tells a given name (the gazetteer's), so that "Michael Bay" stays a person. */
export function landmarks(text: string, isGivenName: (word: string) => boolean = () => false): Finding[] {
  const found: Finding[] = []
  for (const pattern of LANDMARK_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const finding = withoutLeadingWords(text, { type: 'LOCATION', begin: match.index, end: match.index + match[0].length, score: LANDMARK_SCORE }, NOT_A_NAME)
      const name = text.slice(finding.begin, finding.end)
      if (KIND_ALONE.test(name) || namesAPerson(name, isGivenName)) continue
      // A kind word that opens a name goes on from no other name ("Data Lake Export" is no lake).
      const previous = /(\S+)\s+$/u.exec(text.slice(Math.max(0, finding.begin - 40), finding.begin))?.[1]
      if (pattern === KIND_FIRST && previous !== undefined && /\p{Lu}[\p{L}\p{M}]*$/u.test(previous) && !NOT_A_NAME.has(previous)) continue
      found.push(finding)
    }
  }
  return longestOfOverlapping(found)
}
