import type { Feeds, GraphRunner } from './graph-io'

/**
 * Prompt injection = llm_guardrail's TF-IDF + logistic regression (its weights, converted to
 * ONNX) combined with phrase and structure features in a second, calibrated logistic
 * regression, all in `prompt-injection.onnx`. The TF-IDF vocabulary ships beside the graph.
 */
export const INJECTION_GRAPH = 'prompt-injection.onnx'
export const INJECTION_VOCABULARY = 'prompt-injection.vocabulary.json'
export const INJECTION_THRESHOLD = 0.5

/** Term -> column of llm_guardrail's vectorizer (1- and 2-grams of lowercased word tokens). */
export type InjectionVocabulary = Record<string, number>

/** sklearn's `(?u)\b\w\w+\b` on lowercased text: runs of at least two word characters. */
export function guardrailTokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{M}\p{N}_]{2,}/gu) ?? []
}

/**
 * Term ids and raw counts for the graph. The column one past the vocabulary is a sentinel
 * (idf 0, weight 0) so the input is never empty.
 */
export function guardrailTerms(text: string, vocabulary: InjectionVocabulary, vocabularySize: number): { ids: number[]; counts: number[] } {
  const tokens = guardrailTokens(text)
  const counts = new Map<number, number>()
  const count = (term: string) => {
    // Own properties only: "constructor" or "toString" in a prompt must not reach Object.prototype.
    if (!Object.hasOwn(vocabulary, term)) return
    const id = vocabulary[term]
    counts.set(id, (counts.get(id) ?? 0) + 1)
  }
  tokens.forEach((token, i) => {
    count(token)
    if (i + 1 < tokens.length) count(`${token} ${tokens[i + 1]}`)
  })
  counts.set(vocabularySize, 0)
  return { ids: [...counts.keys()], counts: [...counts.values()] }
}

const WORDS = '(?:\\s+\\S+){0,4}?\\s+'
const phrase = (...parts: string[]) => new RegExp(parts.join(WORDS), 'iu')

/**
 * Phrase and structure features, each 0 or 1 (in this order in the graph's `structure` input).
 * They name what the attack does, so the second stage can trust them over single words that
 * ordinary requests share with attacks ("ignore", "previous", "instructions").
 */
export const STRUCTURE_FEATURES: readonly { name: string; pattern: RegExp }[] = [
  {
    name: 'instruction override',
    pattern: phrase(
      '\\b(?:ignore|disregard|forget|skip|bypass|override|overlook|drop|abandon|discard|do not follow|don\'t follow|stop following|never ?mind)',
      '(?:instructions?|rules|prompts?|directives?|guidelines|constraints|guardrails|programming|commands?|orders|restrictions|policies|policy|training|filters|safety|everything (?:you|above|before)|(?:what|everything) you were told)\\b',
    ),
  },
  {
    name: 'override in another language',
    pattern: /(?:ignor|olvid|oubli|vergiss|dimentic|忽略|无视|игнорир|забудь)\S*.{0,40}?(?:instruc|anweisung|istruzion|consign|指令|指示|инструкц|правил)/iu,
  },
  {
    name: 'prompt extraction',
    pattern: phrase(
      '\\b(?:reveal|print|show|output|repeat|leak|display|dump|tell me|give me|what (?:is|are|were)|write|spell out|respond with)',
      '(?:system (?:prompt|message)|(?:initial|original|hidden|secret|exact|full|first) (?:prompt|instructions|rules|password|key)|your (?:instructions|prompt|rules|secret|password|configuration)|(?:words|text|everything) above|above this line|environment variables)',
    ),
  },
  {
    name: 'role marker',
    pattern: /(?:^|\n|\s)(?:system|assistant|developer|admin)\s*:|<\|?(?:im_start|im_end|system|endoftext)\|?>|\[\/?(?:INST|SYS)\]|<\/?(?:system|instructions?|user)>|#{2,}\s*(?:system|new instructions?|instructions?)\b|\[system\]/iu,
  },
  {
    name: 'persona switch',
    pattern: /\b(?:you are now|from now on,? you|pretend (?:to be|you are)|act as an? (?:unfiltered|uncensored|unrestricted|evil)|play a game where you|you will now respond as|jailbreak|developer mode|debug mode|DAN\b|do anything now|never refuses?|without refusing|no content policy|become an uncensored)/u,
  },
  {
    name: 'restrictions removed',
    pattern: /\b(?:no|without|free of|free from|not bound by|ignore all|escaped) (?:any |all |their |your )?(?:ethical |moral |content |safety )?(?:restrictions|filters|censorship|limitations|limits|guidelines|rules|boundaries|guardrails|policy)\b|\b(?:disable|turn off|remove) (?:all |your |the )?(?:filters|guardrails|safety|restrictions)\b/iu,
  },
  {
    name: 'delimiter injection',
    pattern: /(?:-{3,}|={3,}|\*{3,}|"{3}|`{3}|#{3,})\s*(?:end|new|begin|start|system|ignore|override|instructions?)|\b(?:end of (?:prompt|input|user input|instructions|system prompt|document)|new (?:instructions?|rule|task|policy|goal)\s*:|begin (?:new |system )?instructions|<!--)/iu,
  },
  {
    name: 'obey demand',
    pattern: /\byou (?:must|will|shall|have to) (?:now )?(?:obey|comply|answer (?:everything|anything|without)|do anything|follow (?:my|these|only my))\b|\b(?:your|the) (?:previous |prior )?(?:programming|guidelines|instructions|rules) (?:is|are) (?:void|outdated|cancelled|no longer)|\bno longer apply\b/iu,
  },
  {
    name: 'benign ignore',
    pattern: /\b(?:ignore|disregard|forget|skip|overlook) (?:about )?(?:the|my|this|that|any|those|all the|a few|it)\b ?(?:typos?|mistakes?|spelling|grammar|errors?|formatting|previous (?:message|email|reply|question|chapter)|earlier question|last (?:message|email|reply|sentence)|noise|background|missing|small|minor|rest|part|meeting|attachment|first (?:draft|chapter|page)|introduction|case)?\b/iu,
  },
]

/** Undo the cheap obfuscations of attack phrases: leetspeak digits and letters spaced apart. */
export function deobfuscate(text: string): string {
  const leet: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' }
  const unspaced = text.replace(/\b(?:\p{L} ){3,}\p{L}\b/gu, (run) => run.replace(/ /g, ''))
  return unspaced.replace(/(?<=\p{L})[013457@$]|[013457@$](?=\p{L})/gu, (c) => leet[c])
}

export function structureFeatures(text: string): number[] {
  const plain = deobfuscate(text)
  return STRUCTURE_FEATURES.map(({ pattern }) => (pattern.test(plain) ? 1 : 0))
}

export function injectionFeeds(text: string, vocabulary: InjectionVocabulary, vocabularySize: number): Feeds {
  const { ids, counts } = guardrailTerms(text, vocabulary, vocabularySize)
  const structure = structureFeatures(text)
  return {
    term_ids: { type: 'int64', data: BigInt64Array.from(ids, BigInt), dims: [ids.length] },
    term_counts: { type: 'float32', data: Float32Array.from(counts), dims: [counts.length] },
    structure: { type: 'float32', data: Float32Array.from(structure), dims: [structure.length] },
  }
}

export type InjectionAnswer = { label: 'INJECTION' | 'LEGIT'; score: number }

export function injectionAnswer(probabilityOfInjection: number): InjectionAnswer {
  return probabilityOfInjection >= INJECTION_THRESHOLD
    ? { label: 'INJECTION', score: probabilityOfInjection }
    : { label: 'LEGIT', score: 1 - probabilityOfInjection }
}

/** Outputs: `probability` (calibrated) and `guardrail_probability` (llm_guardrail's own answer). */
export async function detectInjection(
  run: GraphRunner,
  text: string,
  vocabulary: InjectionVocabulary,
  vocabularySize: number,
): Promise<{ answer: InjectionAnswer; probability: number; guardrailProbability: number }> {
  const outputs = await run(INJECTION_GRAPH, injectionFeeds(text, vocabulary, vocabularySize))
  const probability = outputs.probability[0]
  return { answer: injectionAnswer(probability), probability, guardrailProbability: outputs.guardrail_probability[0] }
}
