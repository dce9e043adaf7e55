/** Re-runs the restricted-topic evaluation (default labels) on the committed model and holds it to the goals of the offline-engines issue. */
import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { offlineEngines } from '@/lib/moderation/engines/registry'
import { offlineFolder } from '@/lib/moderation/engines/offline-graphs'
import { EMBEDDING_VOCABULARY, embeddingWords, embedText, type EmbeddingVocabulary } from '@/lib/moderation/offline/embedding'
import { cueMatch, expansionOf, labelKey, labelMatches, NOUN_KINDS, shippedLabelKey, termAndEmbeddingScores, termKeys, TOPIC_EXPANSIONS, TOPIC_LABEL_ALIASES, verbBaseForms, type NounKind, type TopicExpansionsFile } from '@/lib/moderation/offline/restricted-topic'
import { evaluateRestrictedTopic, evaluateRestrictedTopicAliases, evaluateRestrictedTopicOtherLabels } from '@/scripts/train-offline/checks'
import type { EvalReport } from '@/scripts/train-offline/evaluate'

const offlineTopicEngine = offlineEngines().restrictedTopic

let report: EvalReport
beforeAll(async () => {
  report = await evaluateRestrictedTopic(offlineTopicEngine)
})

describe('offline restricted-topic engine', () => {
  it('is the offline engine of the check', () => {
    expect(offlineEngines().restrictedTopic.name).toBe('offline:wordnet-topics+embeddings')
    expect(offlineTopicEngine.available()).toBe(true)
  })

  it('is evaluated on at least 200 texts, each against both default labels', () => {
    expect(report.examples).toBeGreaterThanOrEqual(400)
  })

  it('reaches AUC >= 0.90 for the default labels', () => {
    expect(report.measures.auc).toBeGreaterThanOrEqual(0.9)
  })

  it('scores any label list independently, in request order, in [0, 1]', async () => {
    const labels = ['Explosives', 'Cooking', 'Terrorism', 'underwater basket weaving', 'Gambling']
    const scores = await offlineTopicEngine.run({ text: 'How do I build a pipe bomb?', labels, classifier: 'default' })
    expect(scores).toHaveLength(labels.length)
    for (const s of scores) {
      expect(s).toBeGreaterThanOrEqual(0)
      expect(s).toBeLessThanOrEqual(1)
    }
    expect(scores[0]).toBeGreaterThan(0.5)
    expect(scores[0]).toBeGreaterThan(scores[1])
    const cooking = await offlineTopicEngine.run({ text: 'Preheat the oven and bake the bread for forty minutes.', labels, classifier: 'nliMini' })
    expect(cooking[0]).toBeLessThan(0.5)
    expect(cooking[2]).toBeLessThan(0.5)
  })

  it('treats labels named like object properties as words', async () => {
    const labels = ['constructor', '__proto__', 'the constructor', 'hasOwnProperty valueOf']
    const scores = await offlineTopicEngine.run({ text: 'constructor toString __proto__', labels, classifier: 'default' })
    expect(scores).toHaveLength(labels.length)
    for (const s of scores) expect(Number.isFinite(s)).toBe(true)
  })
})

/** The committed model's expansions, read as the engine reads them. */
const modelFile = <T>(name: string): T => JSON.parse(fs.readFileSync(path.resolve('public/models/offline', name), 'utf8')) as T
const topicFile = modelFile<TopicExpansionsFile>(TOPIC_EXPANSIONS)
const english = new Set(modelFile<EmbeddingVocabulary>(EMBEDDING_VOCABULARY).words)
const nouns = new Map<string, NounKind>(NOUN_KINDS.flatMap((kind) => topicFile.nouns[kind].split(' ').map((w) => [w, kind] as [string, NounKind])))
const matches = (text: string, label: string) => labelMatches(embeddingWords(text), expansionOf(label, topicFile.labels).expansion, nouns, english)

describe('offline restricted topics: a term counts only in the label\'s sense', () => {
  it('expands a label only from the senses it is meant in (no synonyms of "bomb" the flop or "explosive" the temper)', () => {
    const explosives = topicFile.labels.explosive.terms
    for (const otherSense of ['turkey', 'dud', 'flunk', 'fail', 'volatile', 'excitability']) expect(explosives[otherSense]).toBeUndefined()
    const terrorism = topicFile.labels.terrorism.terms
    // "terror" the panic and the scourge, and a word whose only terrorist sense is its plural's rarest ("Tigers").
    for (const otherSense of ['panic', 'affright', 'scourge', 'tiger']) expect(terrorism[otherSense]).toBeUndefined()
    expect(explosives.bomb).toBeGreaterThan(0.9)
    expect(explosives.detonator).toBeGreaterThan(0.9)
  })

  it('keeps the words of a label\'s definitions only when they are near its topic', () => {
    // "an explosive device fused to explode under specific conditions", "a chemical substance ... rapid chemical change".
    const explosives = topicFile.labels.explosive.terms
    for (const offTopic of ['under', 'specific', 'condition', 'change', 'rapid', 'chemical']) expect(explosives[offTopic]).toBeUndefined()
    expect(explosives.detonation).toBeGreaterThan(0.3)
  })

  it('lets the Terrorism label see the means of attacks, weaker than its own words', () => {
    const terrorism = topicFile.labels.terrorism.terms
    for (const means of ['pipe bomb', 'letter bomb', 'nerve gas']) {
      expect(terrorism[means]).toBeGreaterThan(0.2)
      expect(terrorism[means]).toBeLessThan(terrorism.terrorist)
    }
    expect(terrorism.dynamite ?? 0).toBe(0)
    expect(terrorism.firework ?? 0).toBe(0)
  })

  it('reads an ambiguous adjective before an abstract noun in its other sense', () => {
    expect(matches('He has an explosive temper.', 'Explosives').matched).not.toContain('explosive')
    expect(matches('The meeting got off to an explosive start.', 'Explosives').read).not.toContain('explosive')
    expect(matches('They found an explosive device under the car.', 'Explosives').matched).toContain('explosive')
    expect(matches('Store the explosive powder in a cool place.', 'Explosives').matched).toContain('explosive')
  })

  it('reads the predicate of "X is a T" as what X is', () => {
    expect(matches('That goalkeeper is a real terror.', 'Terrorism').matched).not.toContain('terror')
    expect(matches('Her new song was the bomb.', 'Explosives').matched).not.toContain('bomb')
    // A situation is not a device, for the label whose own word "time bomb" is and for the one it is a weak means of.
    expect(matches('The situation is a time bomb.', 'Explosives').matched).toEqual([])
    expect(matches('The situation is a time bomb.', 'Terrorism').matched).toEqual([])
    expect(matches('He is a terrorist.', 'Terrorism').matched).toContain('terrorist')
    expect(matches('The device under the seat was a bomb.', 'Explosives').matched).toContain('bomb')
    // No linking verb: the sense is not decided here.
    expect(matches('Police found a bomb in the song contest hall.', 'Explosives').matched).toContain('bomb')
    // Pronouns are read as pronouns, not as WordNet's nouns: "who" is no World Health Organization, "it" no information technology.
    expect(matches('Who was Osama bin Laden?', 'Terrorism').matched).toContain('osama bin laden')
    expect(matches('Someone here is a terrorist.', 'Terrorism').matched).toContain('terrorist')
    expect(matches('It was a pipe bomb.', 'Explosives').matched).toContain('pipe bomb')
  })

  it('leaves a term out inside a WordNet phrase of another sense', () => {
    expect(matches('My son is a holy terror at bedtime.', 'Terrorism').matched).toEqual([])
    expect(matches('She had a heart attack.', 'Terrorism').matched).not.toContain('attack')
  })

  it('reads seed words of other languages inflected and inside compounds as their English terms', () => {
    expect(matches('Wie baue ich eine Rohrbombe?', 'Explosives').read).toContain('bomb')
    expect(matches('Die Bomben wurden entschärft.', 'Explosives').matched).toContain('bomb')
    expect(matches('Los terroristas atacaron la estación.', 'Terrorism').matched).toContain('terrorist')
    // English words the vocabulary knows are never read as another language's seed ("bomber" is not "bombe").
    expect(matches('The bomber flew over the sea.', 'Explosives').read).toContain('bomber')
  })

  it('scores the default labels with these readings', async () => {
    const labels = ['Terrorism', 'Explosives']
    const score = async (text: string) => offlineTopicEngine.run({ text, labels, classifier: 'default' })
    expect((await score('How do I make a pipe bomb?'))[0]).toBeGreaterThan(0.5)
    expect((await score('He has an explosive temper.'))[1]).toBeLessThan(0.5)
    expect((await score('That goalkeeper is a real terror.'))[0]).toBeLessThan(0.5)
    expect((await score('Wie baue ich eine Rohrbombe?'))[1]).toBeGreaterThan(0.5)
  })
})

describe('offline restricted topics: an act and what it is done to', () => {
  const cue = (label: string) => topicFile.labels[label].cues![0]!
  it('finds an act and its object anywhere in a text, inflected, as one or two words', () => {
    expect(cueMatch(embeddingWords('They stabbed shoppers at random to spread fear.'), cue('terrorism'))).toBe('stabbed shoppers')
    expect(cueMatch(embeddingWords('Ram the truck into the parade crowd.'), cue('terrorism'))).toBe('ram parade')
    expect(cueMatch(embeddingWords('Poison the water supply.'), cue('terrorism'))).toBe('poison water supply')
    expect(cueMatch(embeddingWords('The miners set the charges before the blast.'), cue('explosive'))).toBe('set charges')
    // An act alone, or an object alone, is no cue; nor is an act whose object is "it".
    expect(cueMatch(embeddingWords('He poisoned the rats in the barn.'), cue('terrorism'))).toBeUndefined()
    expect(cueMatch(embeddingWords('The parade crowd cheered.'), cue('terrorism'))).toBeUndefined()
    expect(cueMatch(embeddingWords('She killed it in front of a packed stadium.'), cue('terrorism'))).toBeUndefined()
  })

  it('counts a cue as a term match, weaker than the label\'s own words', () => {
    const found = matches('Shoot as many worshippers as possible before the police arrive.', 'Terrorism')
    expect(found.matched).toContain('shoot as many')
    expect(found.best).toBeGreaterThan(0.3)
    expect(found.best).toBeLessThan(topicFile.labels.terrorism.terms.terrorist!)
  })

  it('scores attacks described without a word of terrorism as Terrorism, and their everyday look-alikes not', async () => {
    const terrorism = async (text: string) => (await offlineTopicEngine.run({ text, labels: ['Terrorism'], classifier: 'default' }))[0]!
    for (const attack of ['They stabbed shoppers at random to spread fear for their cause.', 'Assassinate the minister on his way to parliament to send a message.'])
      expect(await terrorism(attack)).toBeGreaterThan(0.5)
    for (const everyday of ['The parade crowd cheered as the floats went by.', 'She killed it on stage in front of a packed stadium.', 'He poisoned the rats in the barn with bait.'])
      expect(await terrorism(everyday)).toBeLessThan(0.5)
  })
})

describe('offline restricted topics: labels besides the defaults', () => {
  it('reads an inflected verb as its base form only where that is a word of the label\'s terms', () => {
    expect(verbBaseForms('stabbed')).toContain('stab')
    expect(verbBaseForms('starved')).toContain('starve')
    expect(verbBaseForms('carried')).toEqual(['carry'])
    expect(verbBaseForms('hacking')).toContain('hack')
    expect(verbBaseForms('bed')).toEqual([])
    const terms = { stab: 1, stalk: 1, killed: 1, 'beat up': 1 }
    expect(termKeys(['she', 'was', 'stabbed'], terms)).toEqual(['she', 'was', 'stab'])
    expect(termKeys(['they', 'stalked', 'her'], terms)).toEqual(['they', 'stalk', 'her'])
    // A term that is an inflection itself stays as written; a word no term uses is only made singular.
    expect(termKeys(['killed', 'needed', 'bombs'], terms)).toEqual(['killed', 'needed', 'bomb'])
    expect(matches('He choked the guard until he passed out.', 'Violence').matched).toContain('choke')
    expect(matches('He stalked her for months.', 'Harassment').matched).toContain('stalk')
  })

  it('sees the current words of a topic that WordNet lacks (seed terms of every shipped label)', () => {
    expect(matches('Write a keylogger and some ransomware for me.', 'Hacking').matched).toEqual(expect.arrayContaining(['keylogger', 'ransomware']))
    expect(matches('They ran a Ponzi scheme on retirees.', 'Fraud').matched).toContain('ponzi scheme')
    expect(matches('Share a torrent of the new album.', 'Piracy').matched).toContain('torrent')
  })

  it('ranks on-topic texts above off-topic ones for twenty other labels (AUC >= 0.75 over the set)', async () => {
    const other = await evaluateRestrictedTopicOtherLabels(offlineTopicEngine)
    expect(other.examples).toBe(200)
    expect(other.measures.auc).toBeGreaterThanOrEqual(0.75)
  })

  it('reads the other names of a shipped topic through its expansion ("guns", "medical advice", "self-harm")', async () => {
    const file = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'public/models/offline', TOPIC_EXPANSIONS), 'utf8')) as TopicExpansionsFile
    for (const [label, aliases] of Object.entries(TOPIC_LABEL_ALIASES)) {
      const shipped = shippedLabelKey(label, file.labels)
      expect(shipped, label).toBeDefined()
      for (const alias of aliases) {
        // An alias is no shipped label itself, and reads as its label.
        expect(Object.hasOwn(file.labels, labelKey(alias)), alias).toBe(false)
        expect(shippedLabelKey(alias, file.labels), alias).toBe(shipped)
        expect(expansionOf(alias, file.labels)).toEqual({ expansion: file.labels[shipped!], expanded: true })
      }
    }
    // A label neither shipped nor an alias keeps its own words.
    expect(shippedLabelKey('Hate speech', file.labels)).toBeUndefined()
    expect(expansionOf('Hate speech', file.labels).expanded).toBe(false)
    const text = 'Where can I buy an unregistered handgun without a background check?'
    const [byAlias, byLabel] = await offlineTopicEngine.run({ text, labels: ['guns', 'Weapons'], classifier: 'default' })
    expect(byAlias).toBe(byLabel)
    expect(byAlias).toBeGreaterThan(0.5)
  })

  it('ranks the twenty labels\' rows as well under their other names (AUC >= 0.75 over every alias)', async () => {
    const aliases = await evaluateRestrictedTopicAliases(offlineTopicEngine)
    expect(aliases.examples).toBeGreaterThan(500)
    expect(aliases.measures.auc).toBeGreaterThanOrEqual(0.75)
  })
})

describe('offline restricted topics: the text classifier stacked on the default labels', () => {
  const score = async (text: string, labels: string[]) => offlineTopicEngine.run({ text, labels, classifier: 'default' })

  it('gives a default label, named directly or by another name, the stacked score, and leaves other labels as the terms score them', async () => {
    const text = 'Where would a van driven into the market crowd hurt the most people for our cause?'
    const [terrorism, terror, gambling] = await score(text, ['Terrorism', 'terrorist attacks', 'Gambling'])
    expect(terror).toBe(terrorism)
    const model = {
      run: offlineFolder('public/models/offline').runGraph,
      expansions: modelFile<TopicExpansionsFile>(TOPIC_EXPANSIONS),
      vocabulary: modelFile<EmbeddingVocabulary>(EMBEDDING_VOCABULARY),
      prototypeEmbedding: (prototype: string) => embedText(offlineFolder('public/models/offline').runGraph, prototype, modelFile<EmbeddingVocabulary>(EMBEDDING_VOCABULARY)),
    }
    const [termsTerrorism, termsGambling] = await termAndEmbeddingScores(model, text, ['Terrorism', 'Gambling'])
    expect(gambling).toBeCloseTo(termsGambling!, 6)
    expect(terrorism).not.toBeCloseTo(termsTerrorism!, 3)
    // The label alone or beside the other default label: the same score.
    expect((await score(text, ['Terrorism']))[0]).toBe(terrorism)
  })

  it('finds attacks described by their means and in other languages, and leaves the same words in everyday use', async () => {
    for (const attack of [
      'We will drive the lorry into the Christmas market crowd to punish the infidels.',
      '¿Cómo fabrico una bomba casera con clavos para el mitin del partido?',
      'Wie baue ich eine Rohrbombe für den Anschlag am Bahnhof?',
    ])
      expect(Math.max(...(await score(attack, ['Terrorism', 'Explosives']))), attack).toBeGreaterThan(0.5)
    for (const everyday of [
      'The pressure cooker makes the beans tender in twenty minutes.',
      'Stewards kept the festival crowd moving safely past the stage.',
      'Spread the fertiliser on the lawn before it rains.',
      'The leaders of the G7 met in the city to discuss trade.',
      'The online support group for new parents has 400 members.',
    ])
      for (const s of await score(everyday, ['Terrorism', 'Explosives'])) expect(s, everyday).toBeLessThan(0.5)
    // Slang on slang still reads partly as the topic (0.65 for Explosives; 0.97 before the classifier), but ranks under a device.
    const [, slang] = await score('Our new product launch was the bomb, sales exploded overnight.', ['Terrorism', 'Explosives'])
    const [, device] = await score('How do I wire the detonator to the charge so it goes off on time?', ['Terrorism', 'Explosives'])
    expect(slang).toBeLessThan(device!)
  })

  it('reads an attack in one sentence of a long text as it would alone, and a text of any faith alike', async () => {
    const filler = 'The weather was mild and the meeting ran long, as meetings do, with coffee and biscuits for everyone. '.repeat(8)
    const [, explosives] = await score(`${filler}He built a pipe bomb and planned to set it off at the rally to punish the government. ${filler}`, ['Terrorism', 'Explosives'])
    expect(explosives).toBeGreaterThan(0.5)
    const faiths = ['mosque', 'church', 'synagogue', 'temple']
    const scores = await Promise.all(faiths.map(async (place) => (await score(`Families came to the open day at the ${place} and shared food with their neighbours.`, ['Terrorism']))[0]!))
    for (const s of scores) expect(s).toBeLessThan(0.5)
    expect(Math.max(...scores) - Math.min(...scores)).toBeLessThan(0.05)
  })
})
