import nlp from 'compromise'
import GIVEN_NAME_LIST from './given-names.json' with { type: 'json' }
import PLACE_NAMES from './places.json' with { type: 'json' }
import { isCommonWord } from './common-words'
import { landmarks, namesAPerson } from './landmarks'
import { lastBeginningBefore, longestOfOverlapping } from './pattern'
import { PO_BOX_BEFORE, streetAddresses, townsAndStates } from './streets'
import type { Finding } from './recognizers'

/**
 * Stands in for Presidio's spaCy recogniser: people, places, organisations and dates found by
 * compromise, with the score Presidio gives every spaCy entity (0.85). compromise's term offsets
 * exclude surrounding punctuation; a comma between terms ("Berlin, Germany") separates entities.
 */
const NAMED_ENTITY_SCORE = 0.85

/** The types only the named-entity reader finds (its DATE_TIME findings are a pattern's type too). */
export const NAME_TYPES: ReadonlySet<string> = new Set(['PERSON', 'LOCATION', 'ORGANIZATION'])

/** A compromise term after the document's 'offset' step; `tags` holds each tag with all its parents. */
type Term = { normal: string; post: string; tags: Set<string>; offset: { start: number; length: number } }

function spans(matches: Term[][], text: string, type: string): Finding[] {
  const findings: Finding[] = []
  for (const terms of matches) {
    let begin = -1
    terms.forEach((term, index) => {
      if (begin < 0) begin = term.offset.start
      const last = index === terms.length - 1
      if (!last && !/[,;:()"!?]/.test(term.post)) return
      let end = term.offset.start + term.offset.length
      // The possessive is a separate token for spaCy: "Obama's" names "Obama".
      if (/['’]s$/i.test(text.slice(begin, end))) end -= 2
      if (end > begin) findings.push({ type, begin, end, score: NAMED_ENTITY_SCORE })
      begin = -1
    })
  }
  return findings
}

/** Titles and kinship or role words in front of a name are not part of it ("Mr. Dmitri Volkov", "sister Chiamaka"). */
const TITLE = /^(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam|herr|frau|mme|mlle|sr|sra|srta|grandma|grandpa|granny|grandad|granddad|nana|uncle|aunt|auntie)\.?\s+/i
const LOWERCASE_WORD = /^\p{Ll}+\s+(?=\p{Lu})/u

function withoutTitle(finding: Finding, text: string): Finding {
  let begin = finding.begin
  for (let leading; (leading = TITLE.exec(text.slice(begin, finding.end)) ?? LOWERCASE_WORD.exec(text.slice(begin, finding.end))); ) begin += leading[0].length
  return begin < finding.end ? { ...finding, begin } : finding
}

/** A word as place names are written: letters, inner hyphens and apostrophes ("Ogooué-Ivindo", "L'Aquila"). */
const WORD = /\p{L}[\p{L}\p{M}]*(?:[-'’.]\p{L}[\p{L}\p{M}]*)*/gu

/** Place names by their first word, each as its words, longest first (places.json, see scripts/train-offline/train-places.ts). */
const PLACES_BY_FIRST_WORD = (() => {
  const index = new Map<string, string[][]>()
  for (const name of PLACE_NAMES as string[]) {
    const words = name.match(WORD) ?? []
    const first = words[0]
    if (first !== undefined) index.set(first, [...(index.get(first) ?? []), words])
  }
  for (const names of index.values()) names.sort((a, b) => b.length - a.length)
  return index
})()

/**
 * Whether text[begin, end) overlaps an entity found already, other than a shorter one of `type` inside it ("Porto" of
 * "Porto Alegre", "Xu" of "Xu Wenjing"), which the longer finding then replaces as a duplicate.
 */
function overlapsAnother(found: Finding[], begin: number, end: number, type: string): boolean {
  return found.some((f) => f.begin < end && begin < f.end && !(f.type === type && begin <= f.begin && f.end <= end && f.end - f.begin < end - begin))
}

type WordSpan = { word: string; begin: number; end: number }
/** The text's words (WORD) with their offsets, as the gazetteers read them. */
const wordSpans = (text: string): WordSpan[] => [...text.matchAll(WORD)].map((m) => ({ word: m[0], begin: m.index, end: m.index + m[0].length }))
/** Whether two words of `text` are one space apart (parts of one name). */
const joinedBySpace = (text: string) => (a: WordSpan, b: WordSpan) => /^ $/.test(text.slice(a.end, b.begin))
/** A word ending in a possessive, which spaCy reads as a token of its own. */
const POSSESSIVE = /['’]s$/

const capitalised = (word: string | undefined) => word !== undefined && /^\p{Lu}/u.test(word)
/** A lower-case word as a name is written in the gazetteers ("lisbon" -> "Lisbon"). */
const withCapital = (word: string) => word[0]!.toUpperCase() + word.slice(1)

/**
 * Places compromise does not know (it knows few outside North America and Western Europe): country,
 * region and time-zone city names from a gazetteer, matched case-sensitively as whole words. A name
 * run together with another capitalised word ("Jordan Peterson", "Victoria Road") is part of some
 * other name and not reported; so is one inside an entity compromise found.
 */
function gazetteerPlaces(text: string, found: Finding[]): Finding[] {
  const words = wordSpans(text)
  const joined = joinedBySpace(text)
  const sentenceStart = (i: number) => i === 0 || /[.!?:;"“(]\s*$/.test(text.slice(words[i - 1].end, words[i].begin))
  const places: Finding[] = []
  for (let i = 0; i < words.length; i++) {
    const candidates = PLACES_BY_FIRST_WORD.get(words[i].word)
    if (!candidates) continue
    const name = candidates.find((parts) => parts.every((part, k) => words[i + k]?.word === part && (k === 0 || joined(words[i + k - 1], words[i + k]))))
    if (!name) continue
    const last = i + name.length - 1
    const begin = words[i].begin
    const end = words[last].end
    i = last
    const before = words[i - name.length]
    if (capitalised(words[last + 1]?.word) && joined(words[last], words[last + 1])) continue
    if (before && capitalised(before.word) && joined(before, words[i - name.length + 1]) && !sentenceStart(i - name.length)) continue
    if (overlapsAnother(found, begin, end, 'LOCATION')) continue
    places.push({ type: 'LOCATION', begin, end, score: NAMED_ENTITY_SCORE })
  }
  return places
}

/** Given names of many languages (given-names.json, see scripts/train-offline/train-given-names.ts). */
const GIVEN_NAMES = new Set(GIVEN_NAME_LIST as string[])

/** A capital and then lower case: a surname, not an acronym ("Dana Carvey's SNL"). */
const writtenAsName = (word: string | undefined) => word !== undefined && /^\p{Lu}[\p{Ll}\p{M}]/u.test(word)
/** "the Tao of Programming", "an Apollo mission": a lone given name after an article is some other thing. */
const ARTICLES = new Set(['the', 'a', 'an'])

/**
 * People compromise does not know (it knows mostly English names): a given name from the gazetteer, with the one or
 * two capitalised words after it that may be names ("Priya Ramaswamy", "Siobhan Ní Bhriain"), or alone. Not when
 * the name is a word compromise knows as anything but a name ("April", "Jordan" the country is a place), when a
 * lone name opens a known place name ("Victoria", "Paris"), when a capitalised word runs into it from the left
 * ("Hotel Julia"), or when it overlaps an entity already found other than a part of it ("Oliveira" inside
 * "Mateus Oliveira", which then replaces it).
 */
function gazetteerPeople(text: string, found: Finding[]): Finding[] {
  const words = wordSpans(text)
  const joined = joinedBySpace(text)
  const people: Finding[] = []
  for (let i = 0; i < words.length; i++) {
    const first = words[i]
    if (!GIVEN_NAMES.has(first.word) || !mayBeNameWord(first.word)) continue
    const before = words[i - 1]
    const titled = before !== undefined && TITLE.test(`${before.word} `)
    if (before && !titled && capitalised(before.word) && joined(before, first) && !opensSentence(text, first.begin)) continue
    let last = i
    // A possessive ends the name ("Johnny Carson's Definition").
    while (last - i < 2 && !POSSESSIVE.test(words[last].word) && writtenAsName(words[last + 1]?.word) && joined(words[last], words[last + 1]) && mayBeNameWord(words[last + 1].word)) last++
    if (last === i && (PLACES_BY_FIRST_WORD.has(first.word) || (before && ARTICLES.has(before.word.toLowerCase())))) continue
    const begin = first.begin
    // The possessive is a separate token for spaCy: "Herman Miller's" names "Herman Miller".
    const end = words[last].end - (POSSESSIVE.test(words[last].word) ? 2 : 0)
    i = last
    if (overlapsAnother(found, begin, end, 'PERSON')) continue
    people.push({ type: 'PERSON', begin, end, score: NAMED_ENTITY_SCORE })
  }
  return people
}

/** A capital, then lower case only, in one or more parts joined by hyphens or apostrophes ("Nwosu-Okafor", "O'Neil"). */
const NAME_SHAPE = /^\p{Lu}[\p{Ll}\p{M}]+(?:[-'’]\p{Lu}?[\p{Ll}\p{M}]+)*$/u
/** A contraction's or possessive's ending ("What's", "Don't"): the word before it is what counts. */
const CLITIC = /(?:n['’]t|['’]\p{Ll}{1,2})$/u

/**
 * A word written as a name whose parts are neither English words nor known to compromise as anything but a name:
 * "Tesfaye", "Nwosu-Okafor"; not "JavaScript", "Rust-based", "What's".
 */
function unlistedNameWord(word: string | undefined): word is string {
  if (word === undefined || !NAME_SHAPE.test(word)) return false
  const bare = word.replace(CLITIC, '')
  return bare.split(/[-'’]/).every((part) => part.length > 0 && !isCommonWord(part)) && mayBeNameWord(bare)
}

/** Verbs done to a person and nouns of kin or role, after which a lone unknown name is a person's ("ask Tavita", "my neighbour Radka"). */
const PERSON_CUE_BEFORE = new Set(
  (
    'tell told telling ask asked asking meet met meeting thank thanked thanking remind reminded invite invited ' +
    'call called calling phone phoned ' +
    'text texted email emailed hire hired congratulate congratulated introduce introduced welcome welcomed ' +
    'neighbour neighbor friend colleague coworker boss manager sister brother cousin son daughter wife husband partner ' +
    'landlord landlady tenant teacher student doctor nurse mum mom dad niece nephew roommate flatmate classmate'
  ).split(' '),
)
/** Words after which "to", "from" or "with" takes a person ("talk to", "heard from", "lunch with"). */
const PERSON_CUE_BEFORE_PREPOSITION = new Set('talk talked speak spoke spoken chat chatted heard hear lunch dinner coffee'.split(' '))

/** "talk to Oyelaran", "heard back from Oyelaran": a preposition after a word that makes it take a person. */
function cuedByPreposition(cue: WordSpan | undefined, preposition: WordSpan | undefined, name: WordSpan, joined: (a: WordSpan, b: WordSpan) => boolean): boolean {
  if (!cue || !preposition || !joined(cue, preposition) || !joined(preposition, name)) return false
  const [cueWord, prepositionWord] = [cue.word.toLowerCase(), preposition.word.toLowerCase()]
  if (!['to', 'from', 'with'].includes(prepositionWord)) return false
  return PERSON_CUE_BEFORE_PREPOSITION.has(cueWord) || (cueWord === 'back' && prepositionWord === 'from')
}

/** Words that only an English sentence is made of. */
const ENGLISH_FUNCTION_WORDS = new Set('the a an of to in on at for with and is are was were has have had will would this that his her their our my your'.split(' '))

/** Whether the sentence going on from `index` (its next 300 characters at most) has an English function word. */
function englishSentenceAfter(text: string, index: number): boolean {
  const rest = text.slice(index, index + 300).split(/[.!?\n]/)[0]!
  return [...rest.matchAll(/\p{L}+/gu)].some(([word]) => ENGLISH_FUNCTION_WORDS.has(word.toLowerCase()))
}

/**
 * People neither compromise nor the gazetteer knows, from the shape and place of the words, as spaCy's model reads
 * them: two or three words written as names whose first and last are neither English words nor known to compromise
 * ("Chukwuemeka Obi", "Nguyen Thi Hoa", "Adaeze Nwosu-Okafor"), not inside a longer run of capitalised words nor after
 * an article; or one such word right after a verb done to a person or a word of kin or role ("tell Themba", "my
 * neighbour Radka"), unless it opens a known place name. A name found cut short before such words is carried on over
 * them; anything else overlapping an entity already found is left to what found it.
 */
function contextualPeople(text: string, found: Finding[]): Finding[] {
  const words = wordSpans(text)
  const joined = joinedBySpace(text)
  const people: Finding[] = []
  for (let i = 0; i < words.length; i++) {
    const first = words[i]
    if (!unlistedNameWord(first.word)) continue
    const before = words[i - 1]
    const cuedBy = (word: WordSpan | undefined) => word !== undefined && joined(word, first) && PERSON_CUE_BEFORE.has(word.word.toLowerCase())
    // A name already found right before it is cut short there ("Tanaka" of "Tanaka Hiroshi", "Xu" of "Xu Wenjing").
    const cutShort = before && joined(before, first) ? found.find((f) => f.type === 'PERSON' && f.end === before.end) : undefined
    // Another capitalised word before it makes it part of a longer name, unless that word is a title or a cue opening
    // the sentence ("Tell Themba"); after an article it names a thing ("the Salle Gaveau", "an Arcturan Mega-Donkey").
    const leading = !cutShort && before && capitalised(before.word) && joined(before, first) && !opensSentence(text, first.begin)
    if (leading && !TITLE.test(`${before.word} `) && !(opensSentence(text, before.begin) && cuedBy(before))) continue
    if (before && ARTICLES.has(before.word.toLowerCase())) continue
    let last = i
    while (last - i < 2 && !POSSESSIVE.test(words[last].word) && writtenAsName(words[last + 1]?.word) && joined(words[last], words[last + 1])) last++
    // A longer run of capitalised words is a title or an organisation's name; a run must end on an unknown word.
    if (capitalised(words[last + 1]?.word) && joined(words[last], words[last + 1])) continue
    while (last > i && !unlistedNameWord(words[last].word.replace(POSSESSIVE, ''))) last--
    const cued = cuedBy(before) || cuedByPreposition(words[i - 2], before, first, joined)
    // A lone word that opens a place name is left to the place gazetteer ("Ngozi" alone is a town in Burundi).
    if (last === i && !cutShort && (!cued || opensSentence(text, first.begin) || PLACES_BY_FIRST_WORD.has(first.word))) continue
    // Every noun of German is capitalised and a sentence's first word is in any language: a run opening a sentence
    // counts only in a sentence of English.
    if (opensSentence(text, first.begin) && !englishSentenceAfter(text, words[last].end)) continue
    const begin = cutShort?.begin ?? first.begin
    // A possessive or a contraction is not part of the name ("Themba's", "Themba'll").
    const end = words[last].begin + words[last].word.replace(CLITIC, '').length
    i = last
    // The longer name replaces the one cut short (a finding inside another of its type is dropped as a duplicate).
    if (!overlapsAnother(found, begin, end, 'PERSON')) people.push(withoutTitle({ type: 'PERSON', begin, end, score: NAMED_ENTITY_SCORE }, text))
  }
  return people
}

/**
 * compromise's own steps for nlp(text) but the last two, 'postTagger' (run below by
 * postTagSentences) and 'chunks' (noun and verb phrases), which people(), places(),
 * organizations() and #Date never read: a tenth to a fifth of the parse, and the same entities on
 * every evaluation text (bench/offline/TUNING-issue18.md, privacy latency). nlp.tokenize has already run
 * its steps (TOKENIZE_STEPS).
 */
const TOKENIZE_STEPS = new Set(['alias', 'normal', 'machine', 'contractions'])
const BEFORE_POST_TAGGER = (nlp.hooks() as string[]).filter((hook) => !TOKENIZE_STEPS.has(hook) && hook !== 'postTagger' && hook !== 'chunks')

/** The parts of compromise's internals (compromise/src/1-one/sweep, 2-two/postTagger) the post-tagger uses. */
type Sentence = unknown[]
type PostTaggerMatch = { match: string; tag?: string | string[]; needs: string[]; wants: string[]; minWant: number; minWords: number; ifNo?: string[] }
type Found = PostTaggerMatch & { pointer: number[] }
type PostTaggerNet = { hooks: Record<string, PostTaggerMatch[]>; always: PostTaggerMatch[] }
type CompromiseView = {
  docs: Sentence[]
  uncache(): void
  unfreeze(): void
}
type CompromiseWorld = {
  model: CompromiseModel
  methods: {
    one: {
      buildNet(matches: unknown[], world: CompromiseWorld): PostTaggerNet
      cacheDoc(document: Sentence[]): Set<string>[]
      match(document: Sentence[], todo: PostTaggerMatch): { ptrs: number[][] }
      bulkTagger(found: Found[], document: Sentence[], world: CompromiseWorld): void
    }
    two: { quickSplit(document: Sentence[]): Sentence[] }
  }
}

const world = nlp.world() as unknown as CompromiseWorld

/** compromise's entity tags: what people(), places(), organizations() and #Date read (see isPersonPart and below). */
const ENTITY_TAGS = ['Person', 'Place', 'Address', 'Organization', 'Date']
/** An entity tag or one of its kinds ("FirstName", "Month"): a term tagged so has the entity tag too. */
const isEntityTag = (tag: string) =>
  ENTITY_TAGS.includes(tag) || (world.model.one.tagSet[tag]?.parents ?? []).some((parent) => ENTITY_TAGS.includes(parent))
/**
 * Whether a post-tagger pattern may tag an entity: its `tag` names one tag or several ("#Date #Month", "Acronym,Person"),
 * as written or, once compromise has built its net, as a list.
 */
const tagsAnEntity = (pattern: { tag?: string | string[] }) =>
  [pattern.tag ?? []].flat().some((tags) => tags.split(/[\s,]+/).some((tag) => isEntityTag(tag.replace(/^#/, ''))))

/**
 * compromise's post-tagger net, built from copies of its patterns: buildNet parses each pattern's
 * `notIf` in place, and parsing one twice fails (compromise builds its own net from the same
 * patterns the first time its 'postTagger' step runs, and a bundler may evaluate this module
 * more than once). A `notIf` compromise has already parsed is put back after the build.
 */
const POST_TAGGER_NET = (() => {
  const patterns = world.model.two.matches as { notIf?: unknown }[]
  const copies: { notIf?: unknown }[] = patterns.map((pattern) => ({ ...pattern, notIf: typeof pattern.notIf === 'string' ? pattern.notIf : undefined }))
  const net = world.methods.one.buildNet(copies, world)
  copies.forEach((copy, i) => {
    if (patterns[i].notIf !== undefined && typeof patterns[i].notIf !== 'string') copy.notIf = patterns[i].notIf
  })
  return net
})()
/**
 * The net's keys (words and #Tags) in the order compromise tries them, each with its patterns as
 * numbers; a pattern listed under several keys gets the number of its first listing (compromise
 * keeps the first pattern of a given match string; none of its 570 share one).
 */
const HOOK_KEYS = Object.keys(POST_TAGGER_NET.hooks)
const HOOK_POSITION = new Map(HOOK_KEYS.map((key, position) => [key, position]))
const PATTERNS: PostTaggerMatch[] = []
const HOOK_PATTERN_IDS = (() => {
  const idOfMatch = new Map<string, number>()
  return HOOK_KEYS.map((key) =>
    POST_TAGGER_NET.hooks[key].map((pattern) => {
      let id = idOfMatch.get(pattern.match)
      if (id === undefined) {
        id = PATTERNS.push(pattern) - 1
        idOfMatch.set(pattern.match, id)
      }
      return id
    }),
  )
})()

function wantedEnough(pattern: PostTaggerMatch, have: Set<string>): boolean {
  if (pattern.wants.length === 0 || pattern.minWant <= 0) return true
  let found = 0
  for (const want of pattern.wants) if (have.has(want) && ++found >= pattern.minWant) return true
  return false
}

/** The positions in the net of a clause's words and tags (`have`). */
function hookPositions(have: Set<string>): number[] {
  const positions: number[] = []
  for (const item of have) {
    const position = HOOK_POSITION.get(item)
    if (position !== undefined) positions.push(position)
  }
  return positions
}

/** Where compromise's net lists each pattern: [position of the key, place in that key's list], in the net's order. */
const LISTINGS: [position: number, place: number][][] = PATTERNS.map(() => [])
HOOK_PATTERN_IDS.forEach((ids, position) => ids.forEach((id, place) => LISTINGS[id]!.push([position, place])))

/** How rarely a key is in a clause, roughly: a word more rarely than any tag, a tag with more parents ("#FirstName") more rarely than its parents ("#Noun"). */
const rarity = (key: string) => (key.startsWith('#') ? (world.model.one.tagSet[key.slice(1)]?.parents.length ?? 0) : Number.MAX_SAFE_INTEGER)

/** Which clause a pattern or a key was last marked for (see PatternIndex). */
let clauseStamp = 0
const patternSeenIn = new Uint32Array(PATTERNS.length)
const keyPresentIn = new Uint32Array(HOOK_KEYS.length)

/**
 * The patterns worth trying on one clause, in compromise's order (its sweep, 01-getHooks to 03-tooSmall): compromise
 * walks every key of the net (730) and gathers every pattern listed under each key the clause has, hundreds for tags
 * such as #Noun, before dropping those whose needs are not all there. A pattern with needs is filed here under its
 * rarest need only, which every clause it can match has; one without needs under each of its wants, as in the net.
 * The patterns gathered that pass compromise's checks are put in its order: by the first key listing them that the
 * clause has, then by their place in that key's list.
 */
class PatternIndex {
  private readonly filed: number[][] = HOOK_KEYS.map(() => [])

  constructor(
    ids: readonly number[],
    private readonly always: readonly PostTaggerMatch[],
  ) {
    for (const id of ids) {
      const { needs, wants } = PATTERNS[id]!
      const keys = needs.length > 0 ? [needs.reduce((rarest, need) => (rarity(need) > rarity(rarest) ? need : rarest))] : wants
      for (const key of keys) this.filed[HOOK_POSITION.get(key)!]!.push(id)
    }
  }

  candidates(positions: readonly number[], have: Set<string>, wordCount: number): PostTaggerMatch[] {
    // A stamp that would wrap around in the arrays starts them over (after 2^32 clauses in one process).
    if (clauseStamp === 0xffffffff) {
      clauseStamp = 0
      patternSeenIn.fill(0)
      keyPresentIn.fill(0)
    }
    clauseStamp++
    for (const position of positions) keyPresentIn[position] = clauseStamp
    const ranked: [rank: number, pattern: PostTaggerMatch][] = []
    for (const position of positions) {
      for (const id of this.filed[position]!) {
        if (patternSeenIn[id] === clauseStamp) continue
        patternSeenIn[id] = clauseStamp
        const pattern = PATTERNS[id]!
        if (wordCount < pattern.minWords || !pattern.needs.every((need) => have.has(need))) continue
        if (pattern.ifNo?.some((no) => have.has(no)) || !wantedEnough(pattern, have)) continue
        const [first, place] = LISTINGS[id]!.find(([listedAt]) => keyPresentIn[listedAt] === clauseStamp)!
        ranked.push([first * PATTERNS.length + place, pattern])
      }
    }
    const candidates = ranked.sort((a, b) => a[0] - b[0]).map(([, pattern]) => pattern)
    for (const pattern of this.always) if (wordCount >= pattern.minWords) candidates.push(pattern)
    return candidates
  }
}

const ALL_PATTERNS = new PatternIndex(
  PATTERNS.map((_, id) => id),
  POST_TAGGER_NET.always,
)
/**
 * The patterns that may tag an entity, in the same order. A clause with no entity tag before the post-tagger gets one
 * only from these: compromise's other patterns set other tags, so where none of these matches, the whole post-tagger
 * leaves the clause without an entity, and its other patterns need not be tried (see postTagSentences).
 */
const ENTITY_PATTERNS = new PatternIndex(
  PATTERNS.flatMap((pattern, id) => (tagsAnEntity(pattern) ? [id] : [])),
  POST_TAGGER_NET.always.filter(tagsAnEntity),
)

/**
 * compromise's 'postTagger' step with the same patterns, the same matches and the same tags set in
 * the same order; it finds each clause's candidate patterns faster (PatternIndex) and builds no
 * view per match (compromise's sweep makes one for its callers; the tagger never reads them). A
 * clause without an entity tag where no entity pattern matches is left as it is: the tags the other
 * patterns would set there are never read (the entity tags and, on a person's name, Possessive are
 * all that runs() reads). Two thirds of the post-tagger's time went to such clauses.
 */
function postTagSentences(view: CompromiseView) {
  const { methods } = world
  // compromise matches these patterns clause by clause (split at commas and semicolons).
  const clauses = methods.two.quickSplit(view.docs)
  const have = methods.one.cacheDoc(clauses)
  const found: Found[] = []
  const matches = (clause: Sentence, pattern: PostTaggerMatch) => methods.one.match([clause], pattern).ptrs
  clauses.forEach((clause, n) => {
    const positions = hookPositions(have[n]!)
    const holdsEntity = (clause as Term[]).some((term) => ENTITY_TAGS.some((tag) => term.tags.has(tag)))
    const entityPatterns = () => ENTITY_PATTERNS.candidates(positions, have[n]!, clause.length)
    if (!holdsEntity && entityPatterns().every((pattern) => matches(clause, pattern).length === 0)) return
    for (const pattern of ALL_PATTERNS.candidates(positions, have[n]!, clause.length)) {
      for (const pointer of matches(clause, pattern)) {
        pointer[0] = n
        found.push({ ...pattern, pointer })
      }
    }
  })
  methods.one.bulkTagger(found, clauses, world)
  view.uncache()
  view.unfreeze()
}

function parse(text: string) {
  const doc = nlp.tokenize(text)
  doc.compute(BEFORE_POST_TAGGER)
  postTagSentences(doc as unknown as CompromiseView)
  // Character offsets of every term, which spans() reads.
  doc.compute('offset')
  return doc
}

/**
 * The longest stretch of text without a sentence end that compromise tags at once. Its tagger takes time quadratic in
 * a sentence's length (1,000 characters of "Michael Bay " with no full stop took 28 ms, 2,000 took 100 ms, 49,000 did
 * not end in minutes), so a longer stretch is cut at a space into pieces tagged one by one. Real sentences are shorter:
 * a text with sentence ends is read whole, as before.
 */
const LONGEST_SENTENCE = 500
const SENTENCE_END = /[.!?。\n]/
/** A full stop after a capitalised word of three letters or fewer ends no sentence for compromise ("Mt.", "Dr."). */
const ABBREVIATION_BEFORE = /(?:^|[^\p{L}])\p{Lu}\p{L}{0,2}$/u

function sentencePieces(text: string): [begin: number, end: number][] {
  const pieces: [number, number][] = []
  let begin = 0
  let afterSentenceEnd = 0
  for (let i = 0; i < text.length; i++) {
    if (SENTENCE_END.test(text[i]!) && !(text[i] === '.' && ABBREVIATION_BEFORE.test(text.slice(Math.max(0, i - 4), i)))) afterSentenceEnd = i + 1
    else if (i - afterSentenceEnd >= LONGEST_SENTENCE) {
      const space = text.lastIndexOf(' ', i)
      const cut = space > afterSentenceEnd ? space : i
      pieces.push([begin, cut])
      begin = afterSentenceEnd = cut
    }
  }
  pieces.push([begin, text.length])
  return pieces
}

/** The sentences of `text` as compromise tags them, in bounded pieces (see LONGEST_SENTENCE), with offsets in `text`. */
export function parsedSentences(text: string): Term[][] {
  const pieces = sentencePieces(text)
  if (pieces.length === 1) return parse(text).docs as unknown as Term[][]
  return pieces.flatMap(([begin, end]) => {
    const sentences = parse(text.slice(begin, end)).docs as unknown as Term[][]
    for (const term of sentences.flat()) term.offset.start += begin
    return sentences
  })
}

/**
 * The longest runs of terms `inside` accepts within each sentence, a run also ending after a term
 * `endsRun` accepts: what compromise's people(), places(), organizations() and match('#Date+')
 * find (compromise/src/3-three/topics, find.js of each), read from the tags in one walk instead of
 * four matches (their comma splits are spans' own). The same entities on every evaluation text
 * (bench/offline/TUNING-issue18.md, run 206).
 */
function runs(sentences: Term[][], inside: (term: Term) => boolean, endsRun: (term: Term) => boolean = () => false): Term[][] {
  const found: Term[][] = []
  for (const terms of sentences) {
    let run: Term[] = []
    for (const term of terms) {
      if (!inside(term)) {
        if (run.length > 0) found.push(run)
        run = []
        continue
      }
      run.push(term)
      if (endsRun(term)) {
        found.push(run)
        run = []
      }
    }
    if (run.length > 0) found.push(run)
  }
  return found
}

/** A person's name, honorifics included (compromise's Honorific is a Person tag); "Spencer's King" is two (but "her majesty" is not split). */
const isPersonPart = (term: Term) => term.tags.has('Person')
const endsPerson = (term: Term) => term.tags.has('Possessive') && term.normal !== 'his' && term.normal !== 'her'
const isPlacePart = (term: Term) => term.tags.has('Place') || term.tags.has('Address')
const isOrganizationPart = (term: Term) => term.tags.has('Organization')
const isDatePart = (term: Term) => term.tags.has('Date')

type CompromiseModel = {
  one: { lexicon: Record<string, string | string[]>; frozenLex: Record<string, string>; tagSet: Record<string, { parents: string[] }> }
  two: { switches: Record<string, string>; orgWords: Record<string, true>; placeWords: Record<string, true>; matches: unknown[] }
}

/**
 * Lower-case words compromise may take for part of an entity whatever their case: words its
 * lexicon tags as a person, place, organisation or date or may read as one ("april": a Person or
 * a Date), the longest word of such a multi-word entry, the words that make an organisation or a
 * place of the words before them ("university", "river"), and the words of its post-tagger
 * patterns that tag an entity.
 */
const ENTITY_WORDS = (() => {
  const { one, two } = world.model
  const words = new Set<string>([...Object.keys(two.orgWords), ...Object.keys(two.placeWords)])
  // A multi-word entry ("the hague", "bank of america") is tagged only where all its words are: its longest word stands for it.
  const add = (entry: string, tags: string | string[]) => {
    if ([tags].flat().some(isEntityTag)) words.add(entry.split(' ').reduce((longest, word) => (word.length > longest.length ? word : longest)))
  }
  for (const [entry, tags] of Object.entries(one.lexicon)) add(entry, tags)
  for (const [entry, tag] of Object.entries(one.frozenLex)) add(entry, tag)
  for (const [word, choices] of Object.entries(two.switches)) add(word, choices.split('|'))
  // The words of the post-tagger patterns that tag an entity ("pm" in "7 pm").
  for (const pattern of PATTERNS) {
    if (!tagsAnEntity(pattern)) continue
    for (const word of [...pattern.needs, ...pattern.wants]) if (/^\p{L}/u.test(word)) words.add(word)
  }
  return words
})()
const KNOWN_WORDS = new Set(Object.keys(world.model.one.lexicon))

/** Words as compromise splits them: hyphens and ampersands separate words ("two-year-olds"). */
const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}\p{M}'’.]*/gu

/** The word at `index` opens the text, or follows a full stop, ! or ? and white space, or a line break. */
function opensSentence(text: string, index: number): boolean {
  if (index === 0) return true
  let i = index - 1
  while (i >= 0 && /\s/.test(text[i])) {
    if (text[i] === '\n') return true
    i--
  }
  return i < index - 1 && i >= 0 && /[.!?]/.test(text[i])
}

/**
 * False when compromise can find no entity in the text, so the parse (most of the engine's time)
 * is skipped: no word it knows as (part of) an entity, no capital letter but on a word it knows
 * opening a sentence ("The", "Call"), no word mixing digits and letters ("3pm", "5th"), none
 * written like an Irish or Italian surname ("o'connor", also "o'clock"), no single letter but
 * "a" and "i", no @. Anything else, unknown words and capitals mid-sentence above all, goes to
 * compromise. The same answers on every evaluation text with and without this check
 * (bench/offline/TUNING-issue18.md, runs 207 and 209).
 */
function mayHoldEntity(text: string): boolean {
  if (text.includes('@')) return true
  for (const match of text.matchAll(TOKEN)) {
    const word = match[0]
    const lower = word.toLowerCase()
    if (ENTITY_WORDS.has(lower) || ENTITY_WORDS.has(lower.replace(/[.'’]+$/, ''))) return true
    if (/\p{N}/u.test(word) && /\p{L}/u.test(word)) return true
    if (/^\p{L}['’]\p{L}/u.test(word)) return true
    // Spelled-out letters ("f u c k i n g") may be read as an acronym.
    if (word.length === 1 && lower !== 'a' && lower !== 'i' && /\p{L}/u.test(word)) return true
    if (lower === word) continue
    if (!opensSentence(text, match.index) || !KNOWN_WORDS.has(lower) || word.slice(1) !== lower.slice(1)) return true
  }
  return false
}

/**
 * Phrases that introduce a person by name ("my name is", "I'm", "call me", "this is", a letter's sign-off): the one to
 * three capitalised words right after are a name (after "this is", two or three). compromise knows English first and
 * last names; most of the world's ("Chiamaka Okonkwo", "Aigerim Bekova", "Siddharth Raghunathan") it does not, where
 * spaCy, which Presidio runs, reads these contexts as a name.
 */
const NAME_INTRODUCTION =
  /(?:\b[Mm]y name is|\b[Mm]y name['’]s|\b[Cc]all me|\bI['’]m|\bI am|\b(?<presenting>[Tt]his is)|\b(?:[Bb]est |[Kk]ind |[Ww]arm )?[Rr]egards,|\b[Ss]incerely,|\b[Yy]ours truly,)\s+(?<name>\p{Lu}[\p{Ll}\p{M}'’-]+(?:[ \t]+\p{Lu}[\p{Ll}\p{M}'’-]+){0,2})/gu
const NAME_TAGS = new Set(['FirstName', 'LastName', 'MaleName', 'FemaleName', 'Person', 'Honorific'])

/** A word compromise does not know, or knows only as (part of) a person's name. */
function mayBeNameWord(word: string): boolean {
  const tags = world.model.one.lexicon[word.toLowerCase()] as string | string[] | undefined
  if (tags === undefined) return true
  return (Array.isArray(tags) ? tags : [tags]).every((tag) => NAME_TAGS.has(tag))
}

/** Names after an introduction, when every word may be a name and the first does not open a known place name. */
function introducedNames(text: string): Finding[] {
  const findings: Finding[] = []
  for (const match of text.matchAll(NAME_INTRODUCTION)) {
    const name = match.groups!.name!
    const words = name.split(/[ \t]+/)
    if (!words.every(mayBeNameWord) || PLACES_BY_FIRST_WORD.has(words[0]!)) continue
    // "This is Kubernetes" presents a thing as often as a person: a first and a last name, or nothing.
    if (match.groups!.presenting && words.length < 2) continue
    const begin = match.index + match[0].length - name.length
    findings.push({ type: 'PERSON', begin, end: begin + name.length, score: NAMED_ENTITY_SCORE })
  }
  return findings
}

/** Nouns that make the name before them a thing's ("the Julia REPL", "our Hugo theme", "Jenkins jobs"). */
const THING_AFTER = new Set(
  'repl theme themes compiler package packages plugin plugins server servers pipeline pipelines build builds release releases version versions app apps library framework cluster clusters runtime sdk api admin dashboard instance instances job jobs agent agents cli container containers image images workspace extension extensions module modules interpreter kernel notebook notebooks speaker speakers device devices config installer'.split(' '),
)
/** Verbs done to software, which a name right after them is ("Restart Jenkins", "we upgraded Grafana"). */
const THING_VERB_BEFORE = new Set(
  'restart restarted restarting upgrade upgraded upgrading deploy deployed deploying install installed installing uninstall uninstalled reinstall reinstalled configure configured configuring patch patched pinned reboot rebooted compile compiled migrate migrated'.split(' '),
)
/** Storms are named like people: "Storm Ciarán", "Typhoon Haiyan". */
const STORM = new Set(['storm', 'hurricane', 'typhoon', 'cyclone'])
/** A verb of writing code, which makes "in <Name>" later in the sentence a programming language ("wrote the solver in Julia"). */
const WRITTEN_IN = /\b(?:wr[io]te|written|rewr[io]te|rewritten|coded?|implemented|programmed|ported|scripted)\b[^.!?]*\bin\s*$/i
/** "my Alexa", "our Hugo": a lone name after a possessive is a device or a product far more often than a person. */
const POSSESSIVE_DETERMINERS = new Set(['my', 'our', 'your', 'their'])

/** A PERSON finding that its neighbours show to be software, a device or a storm. */
function namesAThing(text: string, finding: Finding): boolean {
  // What the neighbours say lies within a few words: bounded windows keep a text of many names linear.
  const before = text.slice(Math.max(0, finding.begin - 200), finding.begin)
  const after = text.slice(finding.end, finding.end + 100)
  const previous = /(\p{L}+)\s+$/u.exec(before)?.[1]?.toLowerCase()
  // Not past a possessive: "Karl's version" is a person's.
  const next = /^\s+(\p{L}[\p{L}-]*)/u.exec(after)?.[1]?.toLowerCase()
  const words = text.slice(finding.begin, finding.end).split(/\s+/)
  const lone = words.length === 1
  // compromise may take the noun into the name ("Hugo theme"), written in lower case ("Steve Jobs" is a person).
  const last = words.at(-1)!
  if ((next !== undefined && THING_AFTER.has(next)) || (!lone && last === last.toLowerCase() && THING_AFTER.has(last))) return true
  if (previous !== undefined && (THING_VERB_BEFORE.has(previous) || STORM.has(previous))) return true
  // compromise may take the storm word into the name ("Hurricane Ian").
  if (!lone && STORM.has(words[0]!.toLowerCase())) return true
  if (lone && previous !== undefined && POSSESSIVE_DETERMINERS.has(previous)) return true
  // A name after an article that ends its noun phrase is a thing's: a ship, a dish, a drink ("a Caesar Salad and an Earl
  // Grey."); one that goes on into a noun is a person's name used of a thing ("a Clint Eastwood picture").
  const phraseEnds = next === undefined || ENGLISH_FUNCTION_WORDS.has(next) || !/^\s+\p{Ll}/u.test(after)
  if (previous !== undefined && ARTICLES.has(previous) && phraseEnds) return true
  return WRITTEN_IN.test(before)
}

export function findNamedEntities(text: string): Finding[] {
  const letterCases = letterCasesOf(text)
  const isGivenName = (word: string) => GIVEN_NAMES.has(word)
  const entities = namedEntities(text)
    .flatMap((finding) => cutAtMarkup(finding, text))
    .filter((finding) => finding.type !== 'PERSON' || !namesAThing(text, finding))
    .filter((finding) => finding.type !== 'LOCATION' || writtenAsAPlace(text.slice(finding.begin, finding.end)))
    .filter((finding) => finding.type !== 'PERSON' || writtenAsAName(text.slice(finding.begin, finding.end), letterCases))
    // compromise reads any name before "Bay" or "Lake" as a place; after a lone given name it is a surname.
    .map((finding) => (finding.type === 'LOCATION' && namesAPerson(text.slice(finding.begin, finding.end), isGivenName) ? { ...finding, type: 'PERSON' } : finding))
  const streets = streetAddresses(text)
  const afterAnAddress = (finding: Finding) => {
    const before = text.slice(Math.max(0, finding.begin - 40), finding.begin)
    if (PO_BOX_BEFORE.test(before)) return true
    const street = lastBeginningBefore(streets, finding.begin)
    return street !== undefined && street.end <= finding.begin && /^,\s*$/.test(text.slice(street.end, finding.begin))
  }
  const towns = townsAndStates(text, (town) => isPlaceName(text.slice(town.begin, town.end)) || afterAnAddress(town))
  const places = longestOfOverlapping([...streets, ...landmarks(text, isGivenName), ...towns])
  // A street or a landmark is a place whatever else its words were read as ("Rue de Rivoli" and the "Isle of Skye" are
  // no people, the "shore of Lake Tahoe" is "Lake Tahoe"), and so is a town with a state's or province's code after it
  // ("Redwood City, CA 94065", "Sydney NSW 2000"). A place of the gazetteer is a town where an address's comma goes before it ("42 Wallaby Way,
  // Sydney", "PO Box 77, Reno").
  const isTown = (finding: Finding) => finding.type === 'PERSON' && isPlaceName(text.slice(finding.begin, finding.end)) && afterAnAddress(finding)
  // The places overlap no other and are sorted: the one that could overlap a finding is the last to begin before its end.
  const overlapsAPlace = (finding: Finding) => (lastBeginningBefore(places, finding.end)?.end ?? 0) > finding.begin
  return [
    ...places,
    ...entities.filter((finding) => !NAME_TYPES.has(finding.type) || !overlapsAPlace(finding)).map((finding) => (isTown(finding) ? { ...finding, type: 'LOCATION' } : finding)),
  ]
}

/**
 * Whether a place compromise found is written as one. spaCy, which Presidio runs, reads places from their capital
 * letters; compromise also tags lower-case words it knows as abbreviations or parts of names ("st", "dist", "va",
 * "ist" and "para" in German and Spanish sentences) and nouns of places ("library", "fridge", "preview"), in code and
 * in other languages above all. A name written in lower case is a place when the gazetteer has it and it is no common
 * English word: "lisbon" and "new york" in a chat message, not "turkey", "nice" or "reading".
 */
function writtenAsAPlace(name: string): boolean {
  if (/\p{Lu}/u.test(name)) return true
  const words = name.match(WORD) ?? []
  if (words.length === 1 && isCommonWord(words[0]!)) return false
  return isPlaceName(words.map(withCapital).join(' '))
}

/**
 * Whether a person found is written as a name. spaCy reads names from their capital letters too: where a text uses
 * capitals, a name in lower case is a word of code ("res", "val", "winston"), an everyday word ("grant", "lesson",
 * "o'clock") or words of another language ("mia sorella"); in a text all in lower case, as chat often is, it may be a
 * name ("tell kwame i said hi"), unless the text is code ("const winston = require('winston')"). Likewise, where a
 * text uses lower case, a name all in capitals is an acronym ("URI", "LU", "JOSE", "DAN"); in a text all in capitals it
 * may be a name ("CALL JOHN SMITH"). A span with no letter ("{", "|", "=>", punctuation compromise tagged with the name
 * before it) never is one.
 */
function writtenAsAName(name: string, text: LetterCases): boolean {
  if (!/\p{L}/u.test(name)) return false
  if (text.hasLowerCase && !/\p{Ll}/u.test(name)) return false
  if (/\p{Lu}/u.test(name)) return true
  return !text.hasCapitals && !text.isCode
}

/** What the letters of a whole text say of its names (see writtenAsAName). */
type LetterCases = { hasCapitals: boolean; hasLowerCase: boolean; isCode: boolean }

/** Signs of code that chat does not make: an assignment or comparison, braces, a back-tick, a call ("pino()", "require('x')"). */
const CODE_SIGNS = /[={}`]|[\p{L}\p{N}_]\(/u

function letterCasesOf(text: string): LetterCases {
  return { hasCapitals: /\p{Lu}/u.test(text), hasLowerCase: /\p{Ll}/u.test(text), isCode: CODE_SIGNS.test(text) }
}

/** Characters of markup and code, which no name holds. */
const MARKUP = /[[\]{}()<>=|`"\\/\n]/u

/**
 * A name ends where markup begins. compromise reads "Lovelace](https://example.com/ada)" and `title="View` as one
 * word each, so a name in a Markdown link ran on into its address and a word of an attribute or a link's text was read
 * with what is around it ("The [country", "Overview](#overview"); spaCy, which Presidio runs, splits them. What lies
 * before the first character of markup is kept (markup opening the finding skipped) where it is two words or more, one
 * that is no common English word, or a place of the gazetteer ("Grace Hopper", "Turkey" of "Turkey](https://…"): not
 * the "The" and "Default" left of "The [country code]" and "Default [country code]".
 */
function cutAtMarkup(finding: Finding, text: string): Finding[] {
  if (!NAME_TYPES.has(finding.type)) return [finding]
  let begin = finding.begin
  while (begin < finding.end && (MARKUP.test(text[begin]!) || /\s/u.test(text[begin]!))) begin++
  let end = begin
  while (end < finding.end && !MARKUP.test(text[end]!)) end++
  if (begin === finding.begin && end === finding.end) return [finding]
  while (end > begin && /[\s'’.,:;!?-]/u.test(text[end - 1]!)) end--
  const name = text.slice(begin, end)
  const words = name.match(WORD) ?? []
  const named = words.length > 1 || (words.length === 1 && !isCommonWord(words[0]!)) || isPlaceName(name)
  return named ? [{ ...finding, begin, end }] : []
}

/** Whether `name` is a place of the gazetteer, word for word. */
function isPlaceName(name: string): boolean {
  const words = name.match(WORD) ?? []
  return (PLACES_BY_FIRST_WORD.get(words[0] ?? '') ?? []).some((parts) => parts.length === words.length && parts.every((part, i) => part === words[i]))
}

/** Verbs that open a question about someone in chat, before the person ("can priya send the slides", "did raj call"). */
const QUESTION_VERBS_BEFORE = new Set('can could will would did does do should'.split(' '))

/**
 * A word after a given name in lower-case chat that reads as its surname ("call oluwaseun adeyemi"): five letters or
 * more with a vowel, no English word and none compromise knows but as a name. Chat's shorthand after a name is short
 * ("tell kwame thx", "ask raj asap") or a word compromise knows ("gonna").
 */
function lowercaseSurname(word: string): boolean {
  return word.length >= 5 && /[aeiouy]/.test(word) && !isCommonWord(word) && mayBeNameWord(word)
}

/**
 * In a text written all in lower case, as chat often is, a given name right after a verb done to a person, a word of
 * kin or role, or a verb opening a question ("tell kwame i said hi", "ask priya", "can priya send the slides"), with
 * its surname after it (lowercaseSurname). Capital letters say nothing there; the gazetteer and the cue must both
 * speak, and a given name that is also an English word is left ("will mark the essays", "could bill be wrong").
 */
function lowercasePeople(text: string, found: Finding[]): Finding[] {
  if (/\p{Lu}/u.test(text)) return []
  const words = wordSpans(text)
  const joined = joinedBySpace(text)
  const givenName = (word: string) => GIVEN_NAMES.has(withCapital(word)) && !isCommonWord(word)
  const people: Finding[] = []
  for (let i = 1; i < words.length; i++) {
    const [cue, first] = [words[i - 1]!, words[i]!]
    if (!(PERSON_CUE_BEFORE.has(cue.word) || QUESTION_VERBS_BEFORE.has(cue.word)) || !joined(cue, first) || !givenName(first.word)) continue
    const next = words[i + 1]
    const last = next !== undefined && joined(first, next) && lowercaseSurname(next.word) ? next : first
    if (!found.some((f) => f.begin < last.end && first.begin < f.end)) people.push({ type: 'PERSON', begin: first.begin, end: last.end, score: NAMED_ENTITY_SCORE })
  }
  return people
}

function namedEntities(text: string): Finding[] {
  if (!mayHoldEntity(text)) {
    const places = gazetteerPlaces(text, [])
    const listed = [...places, ...introducedNames(text), ...gazetteerPeople(text, places)]
    return [...listed, ...contextualPeople(text, listed), ...lowercasePeople(text, listed)]
  }
  const sentences = parsedSentences(text)
  const entities = [
    ...spans(runs(sentences, isPersonPart, endsPerson), text, 'PERSON').map((f) => withoutTitle(f, text)),
    ...spans(runs(sentences, isPlacePart), text, 'LOCATION'),
    ...spans(runs(sentences, isOrganizationPart), text, 'ORGANIZATION'),
  ]
  const places = gazetteerPlaces(text, entities)
  const listed = [...entities, ...introducedNames(text), ...places, ...gazetteerPeople(text, [...entities, ...places])]
  return [
    ...listed,
    ...contextualPeople(text, listed),
    ...lowercasePeople(text, listed),
    // Numeric dates are the date patterns' job; compromise also tags digit groups such as SSNs.
    ...spans(runs(sentences, isDatePart), text, 'DATE_TIME').filter((f) => /\p{L}/u.test(text.slice(f.begin, f.end))),
  ]
}
