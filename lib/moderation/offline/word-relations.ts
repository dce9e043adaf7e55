import { fnv1a } from './hashing'

/**
 * WordNet's synonyms and antonyms among the embedding's words, as one Bloom filter (about 0.1% false positives), so
 * that the similarity pair reader can tell a word swapped for its synonym ("leaves" / "departs") from one swapped for
 * another thing of the same kind ("Rome" / "Madrid"), which word vectors put equally close. Keys are sorted pairs of
 * base forms; words are reduced to base forms here, the same way at training and at run time.
 */
export type WordRelationKind = 'synonym' | 'antonym'

export type WordRelations = { bits: number; hashes: number; filter: string }

/** The Bloom filter's key for a relation between two base forms (order-free). */
export function relationKey(kind: WordRelationKind, a: string, b: string): string {
  return a < b ? `${kind}:${a} ${b}` : `${kind}:${b} ${a}`
}

/** The filter's bit positions for a key (double hashing over two FNV-1a hashes). */
export function relationBits(key: string, bits: number, hashes: number): number[] {
  const first = fnv1a(key)
  const second = fnv1a(key, 0x9e3779b9) | 1
  return Array.from({ length: hashes }, (_, i) => ((first + Math.imul(i, second)) >>> 0) % bits)
}

/** Past forms of common irregular verbs (and comparatives), which suffix rules cannot undo. */
const IRREGULAR = new Map(
  (
    'arose:arise ate:eat bade:bid became:become began:begin bent:bend bet:bet bit:bite bitten:bite bled:bleed blew:blow ' +
    'bore:bear born:bear bought:buy bound:bind bred:breed broke:break broken:break brought:bring built:build burnt:burn ' +
    'caught:catch chose:choose chosen:choose clung:cling came:come crept:creep dealt:deal did:do done:do drew:draw ' +
    'drawn:draw drank:drink drunk:drink drove:drive driven:drive dug:dig ate:eat eaten:eat fell:fall fallen:fall fed:feed ' +
    'felt:feel fought:fight found:find fled:flee flew:fly flown:fly forbade:forbid forgot:forget forgotten:forget ' +
    'forgave:forgive forgiven:forgive froze:freeze frozen:freeze got:get gotten:get gave:give given:give went:go gone:go ' +
    'grew:grow grown:grow hung:hang had:have heard:hear hid:hide hidden:hide held:hold kept:keep knew:know known:know ' +
    'laid:lay led:lead left:leave lent:lend lay:lie lain:lie lit:light lost:lose made:make meant:mean met:meet paid:pay ' +
    'quit:quit ran:run rang:ring rung:ring rode:ride ridden:ride rose:rise risen:rise said:say saw:see seen:see sought:seek ' +
    'sold:sell sent:send set:set shook:shake shaken:shake shone:shine shot:shoot shut:shut sang:sing sung:sing sank:sink ' +
    'sunk:sink sat:sit slept:sleep slid:slide spoke:speak spoken:speak spent:spend spun:spin stood:stand stole:steal ' +
    'stolen:steal stuck:stick stung:sting struck:strike swore:swear sworn:swear swept:sweep swam:swim swum:swim ' +
    'took:take taken:take taught:teach tore:tear torn:tear told:tell thought:think threw:throw thrown:throw ' +
    'understood:understand woke:wake woken:wake wore:wear worn:wear won:win wound:wind withdrew:withdraw ' +
    'withdrawn:withdraw wrote:write written:write better:good best:good worse:bad worst:bad children:child men:man ' +
    'women:woman people:person feet:foot teeth:tooth mice:mouse'
  )
    .split(' ')
    .map((entry) => entry.split(':') as [string, string]),
)

/** The word and the base forms suffix rules and the irregular list give it ("departs" -> "depart", "fell" -> "fall"). */
export function baseForms(word: string): string[] {
  const forms = new Set([word])
  const irregular = IRREGULAR.get(word)
  if (irregular) forms.add(irregular)
  const rules: [RegExp, string][] = [
    [/ies$/u, 'y'],
    [/ied$/u, 'y'],
    [/es$/u, ''],
    [/s$/u, ''],
    [/ed$/u, ''],
    [/ed$/u, 'e'],
    [/ing$/u, ''],
    [/ing$/u, 'e'],
    [/ly$/u, ''],
    [/([^aeiou])\1(?:ed|ing)$/u, '$1'],
  ]
  for (const [pattern, replacement] of rules) {
    if (word.length > 4 && pattern.test(word)) forms.add(word.replace(pattern, replacement))
  }
  return [...forms]
}

const decoded = new WeakMap<WordRelations, Uint8Array>()

function filterBytes(relations: WordRelations): Uint8Array {
  let bytes = decoded.get(relations)
  if (!bytes) {
    bytes = Uint8Array.from(atob(relations.filter), (c) => c.charCodeAt(0))
    decoded.set(relations, bytes)
  }
  return bytes
}

function hasKey(relations: WordRelations, key: string): boolean {
  const bytes = filterBytes(relations)
  return relationBits(key, relations.bits, relations.hashes).every((bit) => (bytes[bit >>> 3]! & (1 << (bit & 7))) !== 0)
}

/**
 * The word and those of its base forms that are words (`known`: in the vocabulary the relations were built from), so
 * that "morning" is not also looked up as "morne", and each extra lookup's false positives stay few.
 */
function knownForms(word: string, known: (word: string) => boolean): string[] {
  return baseForms(word).filter((form) => form === word || known(form))
}

/** Whether two words share a base form that is a word. */
export function sameBase(a: string, b: string, known: (word: string) => boolean): boolean {
  const bases = new Set(knownForms(a, known))
  return knownForms(b, known).some((form) => bases.has(form))
}

/** Whether WordNet relates the two words (any of their base forms that are words) by `kind`. */
export function related(relations: WordRelations, kind: WordRelationKind, a: string, b: string, known: (word: string) => boolean): boolean {
  const formsA = knownForms(a, known)
  const formsB = knownForms(b, known)
  return formsA.some((x) => formsB.some((y) => x !== y && hasKey(relations, relationKey(kind, x, y))))
}
