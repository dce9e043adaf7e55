import { decodedPayloads, normalizeCharacters, normalizeObfuscation } from './deobfuscate'
import type { Feeds, GraphRunner } from './graph-io'
import { extractionInAnotherLanguage, overridesInAnotherLanguage } from './injection-languages'

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
const anyOf = (...patterns: RegExp[]) => ({ test: (text: string) => patterns.some((p) => p.test(text)) })
/** What an assistant was set up with, named the ways prompt-extraction attempts name it. */
const ASSISTANT_SETUP =
  // Twelfth round: also the setup named by who wrote it ("the rules your developer gave you"), by what it does ("the text
  // that configures you"), by where it sits ("the top of this conversation", "before my first message") and by its
  // other names (preamble, initialisation text, context window, persona, system-level instructions).
  '(?:(?:instructions|rules|guidance|guidelines|directives|text|message|prompt|words)(?: that)? (?:your|the) (?:developers?|creators?|makers?|company|operators?|owners?|admins?|programmers?|vendor|openai|anthropic)(?: \\w+)? (?:gave|wrote|set|provided|configured|put|give|writes)|' +
  '(?:text|message|prompt|instructions)(?: that)? (?:configures?|initiali[sz]es|governs|instructs|programs|controls) you|' +
  '(?:instructions|rules|guidance|directives|text|message|prompt|setup \\w+)(?: that)? you (?:were|have been|\'ve been|got|received)(?: \\w+)? (?:given|told|set up with|configured with|initiali[sz]ed with|programmed with|started with|provided|at the start)|' +
  'what (?:were you|have you been|was you|you were) (?:told|given|instructed)|(?:the )?(?:top|start|beginning) of (?:this|the|our) (?:conversation|chat)|(?:before|above) my (?:first )?(?:message|question)|' +
  'your (?:own )?(?:system[- ]level|pre-?prompt|meta-?prompt|preamble|initiali[sz]ation(?: text| prompt)?|context window|backstory|persona prompt|hidden \\w+|secret \\w+|confidential \\w+|internal \\w+|guidance|guidelines|setup (?:message|text|prompt))|' +
  'system (?:prompt|message)|(?:initial|original|hidden|secret|exact|full|first|opening|starting|underlying|internal|developer|operator|pre-?conversation|confidential) (?:prompt|instructions|rules|password|key|message|configuration|directives|text|guidance|guidelines)|your (?:instructions|prompt|rules|secret|password|configuration|directives|initial|original|hidden)|instructions you (?:were|have been|got) given|what you were (?:told|given|instructed)|(?:words|text|messages?) (?:that )?(?:came |written |sent )?before (?:this|my|our) (?:message|conversation|chat|request))'
const phrase = (...parts: string[]) => new RegExp(parts.join(WORDS), 'iu')
/**
 * What an override does to the instructions, in WordNet's synonyms of ignore, cancel and disobey as well as the words
 * attacks most often use ("ignore all previous instructions", "set aside your guidance", "countermand your orders").
 */
const OVERRIDE_VERBS =
  "ignore|disregard|forget(?: about)?|skip|bypass|override|overlook|drop|abandon|discard|do not (?:follow|obey|heed|listen to)|don't (?:follow|obey|heed|listen to)|" +
  'stop (?:following|obeying|listening to|heeding)|never ?mind|(?:set|put|push|brush|cast) aside|pay no (?:attention|heed|mind) to|take no notice of|disobey|' +
  'revoke|rescind|countermand|overrule|nullify|unlearn|defy|circumvent'
/** Override verbs that ordinary requests use too: they count only on the assistant's own instructions. */
const WEAK_OVERRIDE_VERBS = 'cancel|delete|clear|reset|erase|wipe|scrap|scratch|ditch|toss|throw (?:out|away)|dismiss|neglect|suspend|lose|void|annul'
/** The instructions an assistant was given, named the ways overrides name them. */
const INSTRUCTIONS =
  '(?:instructions?|directions|rules|prompts?|directives?|guidelines|guidance|constraints|guardrails|programming|commands?|orders|restrictions|policies|policy|training|filters|safety(?: (?:settings|rules|guidelines|training))?|' +
  'system (?:message|prompt)|setup|configuration|persona|conditioning|content polic(?:y|ies))'

/**
 * Phrase and structure features, each 0 or 1 (in this order in the graph's `structure` input).
 * They name what the attack does, so the second stage can trust them over single words that
 * ordinary requests share with attacks ("ignore", "previous", "instructions").
 */
export const STRUCTURE_FEATURES: readonly { name: string; pattern: { test(text: string): boolean } }[] = [
  {
    name: 'instruction override',
    pattern: anyOf(
      phrase(
        `\\b(?:${OVERRIDE_VERBS})`,
        `(?:${INSTRUCTIONS}|everything (?:you|above|before)|(?:what|everything|whatever|anything) you(?:'ve| were| have been) (?:been )?(?:told|given|instructed|taught|programmed))\\b`,
      ),
      // Verbs that ordinary requests use on orders, filters and settings ("cancel my order", "reset the filters") count
      // only for the assistant's own instructions: "your …", "the system …", "all previous …".
      phrase(`\\b(?:${WEAK_OVERRIDE_VERBS})`, `(?:your|the (?:system|developer|developers'|original|initial|earlier|prior|previous|hidden|above)|all (?:prior|previous|earlier|of your|the above))(?:\\s+\\S+){0,2}?\\s+${INSTRUCTIONS}\\b`),
      // The same said of the instructions: "your original instructions are revoked", "everything you were told no longer applies".
      new RegExp(
        `\\b(?:your|the|all|any|my|these) (?:\\w+ ){0,2}?(?:instructions|directions|directives|rules|guidance|guidelines|orders|commands|programming|prompts?|policies|settings) (?:are|is|were|have been|has been) (?:now |hereby |officially )?(?:void|null|cancell?ed|revoked|rescinded|obsolete|invalid|lifted|suspended|overridden|overruled|no longer (?:valid|in effect|in force|active|appl(?:y|ies|icable)))\\b|\\bconsider (?:your|the|all) (?:\\w+ ){0,2}?(?:instructions|directions|directives|rules|guidance|guidelines|orders|programming|prompts?) (?:void|null|cancell?ed|revoked|rescinded|obsolete|lifted|suspended|overridden)\\b|\\b(?:everything|anything|whatever) (?:you (?:were|have been|'ve been) (?:told|instructed|given|taught|programmed)(?: \\w+){0,3}|(?:above|before) this (?:line|message|point))(?:\\s+\\S+){0,3}?\\s+(?:no longer appl(?:y|ies)|(?:is|are) (?:void|cancell?ed|revoked))\\b`,
        'iu',
      ),
    ),
  },
  { name: 'override in another language', pattern: { test: overridesInAnotherLanguage } },
  { name: 'prompt extraction in another language', pattern: { test: extractionInAnotherLanguage } },
  {
    name: 'prompt extraction',
    pattern: anyOf(
      phrase(
        '\\b(?:reveal|print|show|output|repeat|leak|display|dump|tell me|give me|what (?:is|are|were)|write|spell out|respond with|(?:begin|start|open) your (?:answer|reply|response) with)',
        `(?:${ASSISTANT_SETUP}|(?:words|text|everything) above|above this line|environment variables)`,
      ),
      // Asked as a question about the setup: "what were you told before …", "what rules did your creators give you".
      /\bwhat (?:were you|have you been) (?:told|instructed|given|programmed)(?: to do)? (?:before|at the (?:start|beginning)|initially|by your)|\bwhat (?:\w+ ){0,2}?(?:instructions|rules|guidance|guidelines|directives|prompt) (?:did|have|has) (?:your|the) (?:developers?|creators?|makers?|company|operators?|owners?|admins?|programmers?) (?:give|gave|given|set|write|written|provide|provided)\b/iu,
      // Verbs that ordinary requests use on text above ("translate the text above") only count for the assistant's own setup.
      phrase('\\b(?:copy|paste|recite|quote|disclose|expose|echo|list|summari[sz]e|paraphrase|translate|describe|share|return)', `(?:${ASSISTANT_SETUP})`),
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
    // Each run of -, =, * or # is tried from its start only: tried from every position of a long run, the run was read to its end and back each time.
    pattern: /(?:(?<!-)-{3,}|(?<!=)={3,}|(?<!\*)\*{3,}|"{3}|`{3}|(?<!#)#{3,})\s*(?:end|new|begin|start|system|ignore|override|instructions?)|\b(?:end of (?:prompt|input|user input|instructions|system prompt|document)|new (?:instructions?|rule|task|policy|goal)\s*:|begin (?:new |system )?instructions|<!--)/iu,
  },
  {
    name: 'obey demand',
    pattern: /\byou (?:must|will|shall|have to) (?:now )?(?:obey|comply|answer (?:everything|anything|without)|do anything|follow (?:my|these|only my))\b|\b(?:your|the) (?:previous |prior )?(?:programming|guidelines|instructions|rules) (?:is|are) (?:void|outdated|cancelled|no longer)|\bno longer apply\b/iu,
  },
  {
    name: 'task replaced',
    pattern: /\b(?:from (?:this moment|now on|here on)|starting (?:now|immediately)|effective immediately)\b.{0,40}\b(?:your (?:only |new |real |sole )?(?:task|job|goal|purpose|objective)|you (?:will|must|shall) (?:only|now|reply|answer|respond|output))|\byour (?:real|actual|new|true|only) (?:task|job|goal|purpose|objective|mission) (?:is|will be|:)|\btakes? (?:priority|precedence) over\b|\b(?:scratch|cancel|drop|abandon|stop) (?:all |your |the )?(?:earlier |previous |prior |current |original )?(?:directions|objective|task|goal|mission|instructions|orders)\b|\banything you were (?:configured|told|instructed|programmed|set up)\b|\beverything (?:before|above) (?:this|here)(?: line)? (?:was|is) (?:a test|fake|void|irrelevant)/iu,
  },
  {
    name: 'addressed to the AI inside content',
    pattern: /\b(?:note|message|instructions?|notice|reminder|p\.?s\.?)\s+(?:to|for)\s+(?:the |any |all |an? )?(?:ai|assistant|model|llm|agent|bot|chatbot|language model|email assistant)s?\b|\b(?:ai|llm|language model|assistant|agent|model|bot|chatbot)s?\s*(?:\(|,)?\s*(?:reading|processing|summari[sz]ing|visiting|parsing|analy[sz]ing|that reads?|who reads?|when (?:processing|summari[sz]ing|reading|asked|you read))\b|\b(?:dear|hey|attention|system notice to(?: the)?|important instruction for the|hidden note for the) (?:ai|assistant|model|llm|agent|email assistant)\b|(?:^|[\n.:>"(\[{]\s*)(?:ai(?: system| model| agents?)?|assistant|agent|llm|language model|model)\s*[:,]\s*\w/iu,
  },
  {
    name: 'hidden markup',
    pattern: /display\s*:\s*none|font-size\s*:\s*0|visibility\s*:\s*hidden|opacity\s*:\s*0(?:[^.]|$)|color\s*:\s*(?:white|#fff)/iu,
  },
  {
    name: 'data exfiltration',
    pattern: /!\[[^\]]*\]\(\s*https?:\/\/[^)\s]*[?&][^)\s]*=|\[[^\]]*\]\(\s*https?:\/\/[^)\s]*[?&][^)\s]*=\s*\)?.{0,40}(?:token|password|session|history|data)|\b(?:append|include|add|send|forward|post|upload|encode|put)\b.{0,60}\b(?:conversation|chat history|history|previous messages|session token|token|passwords?|api key|(?:last|all|every) \w* ?e-?mails?|user'?s? (?:data|address|email|phone|messages))\b.{0,60}(?:url|link|query|parameter|https?:\/\/|\S+@\S+\.\w+|webhook)/iu,
  },
  {
    name: 'tool or action hijack',
    pattern: /\b(?:call|invoke|use|trigger)\s+(?:the\s+)?[\w_]+\s+(?:tool|function|api|endpoint)\b.{0,40}(?:with|to|amount)|\bcurl\s+\S+\s*\|\s*(?:sudo\s+)?(?:sh|bash)\b.{0,40}before|\b(?:transfer|wire)\s+(?:\$?\d|funds|money)|\b(?:delete|drop|wipe|erase)\s+(?:all|every|the)\s+(?:records|files|e-?mails|tables?|users|data)\b|\bdisable (?:all )?(?:the )?(?:safety|security) (?:checks|filters|measures)|\bmark (?:this|the) (?:order|invoice|ticket) as (?:refunded|paid|approved)|\bissue an? (?:\$?\d+ )?(?:refund|credit)\b|\bhas authori[sz]ed you to\b/iu,
  },
  {
    name: 'secret request',
    pattern: /\b(?:print|show|display|tell me|give me|reveal|output|spell|share|send me|what (?:is|are|was|were))\b.{0,50}\b(?:api[_ ]?keys?|secret (?:token|key|word|code)|credentials you|connection string|environment variables?|env vars?|[A-Z]+_API_KEY|private key|pre-?prompt|hidden (?:instructions|rules)|(?:password|token|key)s? (?:that is |that's |which is )?(?:stored|saved|kept|hidden|set|you were|in your|from your|you have))\b|\b(?:what|which) secret\b/iu,
  },
  {
    name: 'role-play jailbreak',
    pattern: /\b(?:let'?s play a game|stay in character|you are (?:now )?\w+,? an? (?:ai|assistant|model|chatbot) (?:with|without|that|who)|act as (?:two|an?|my) \w*\s*(?:ais?|assistants?|models?)\b.{0,30}(?:ignore|without|no|rule)|(?:rebel|unfiltered|uncensored|unrestricted|jailbroken|evil|rogue) (?:one|ai|version|mode|assistant|hacker|character|model)|(?:late|dead|deceased) grand(?:ma|mother|pa|father) (?:who )?used to|never says no|(?:has|with) no (?:content )?polic(?:y|ies)|always answers|(?:enable|activate|enter|switch (?:in)?to) developer mode|opposite mode|without (?:any )?filters)\b/iu,
  },
  {
    name: 'decode and obey',
    pattern: /\b(?:decode|decipher|unscramble|translate|read|apply rot-?13|reverse|convert)\b.{0,40}\b(?:and|then)\s+(?:follow|obey|execute|do|comply|run|act on|carry out)\b|\b(?:execute|follow|obey|run) (?:the|this) (?:hex|base64|encoded|reversed|hidden|rot13|morse)\b|\bdecode and execute\b/iu,
  },
  {
    name: 'asks for help writing a prompt',
    pattern: /\b(?:write|draft|create|design|improve|review|make|build|structure|fix)\b(?:\s+\S+){0,3}?\s+(?:system prompts?|prompts?|instructions) (?:for|that|to help|which)\b|\bhow (?:do|can|should) (?:i|we|you) (?:write|structure|design|test|improve)\b.{0,30}\b(?:system )?prompts?\b|\bwhat (?:is|are|should) (?:a |the )?(?:good )?system prompts?\b/iu,
  },
  {
    name: 'benign ignore',
    pattern: /\b(?:ignore|disregard|forget|skip|overlook) (?:about )?(?:the|my|this|that|any|those|all the|a few|it)\b ?(?:typos?|mistakes?|spelling|grammar|errors?|formatting|previous (?:message|email|reply|question|chapter)|earlier question|last (?:message|email|reply|sentence)|noise|background|missing|small|minor|rest|part|meeting|attachment|first (?:draft|chapter|page)|introduction|case)?\b/iu,
  },
]

/** Longest piece of text the phrase features read at once, and how much consecutive pieces share. */
export const PHRASE_WINDOW = 2000
const PHRASE_OVERLAP = 400

/**
 * The text in overlapping pieces of at most PHRASE_WINDOW characters, each starting after a space where one is near.
 * The phrase patterns and the undoing of obfuscation cost more than linear time on some long inputs (49,000 hyphens
 * took 9 s); on pieces they cost linear time in all. Every phrase a pattern finds spans well under PHRASE_OVERLAP
 * characters (its widest gap is 60), so it lies whole inside some piece. A text up to PHRASE_WINDOW is one piece.
 */
export function phraseWindows(text: string): string[] {
  if (text.length <= PHRASE_WINDOW) return [text]
  const windows: string[] = []
  for (let start = 0; ; ) {
    windows.push(text.slice(start, start + PHRASE_WINDOW))
    if (start + PHRASE_WINDOW >= text.length) return windows
    const next = start + PHRASE_WINDOW - PHRASE_OVERLAP
    const space = text.indexOf(' ', next)
    start = space !== -1 && space < next + PHRASE_OVERLAP / 4 ? space + 1 : next
  }
}

/** The phrase features read the text with obfuscations undone (spacing, leetspeak, look-alikes, full-width), piece by piece. */
export function structureFeatures(text: string): number[] {
  const found = STRUCTURE_FEATURES.map(() => 0)
  for (const window of phraseWindows(text)) {
    const plain = normalizeObfuscation(window)
    STRUCTURE_FEATURES.forEach(({ pattern }, i) => {
      if (found[i] === 0 && pattern.test(plain)) found[i] = 1
    })
  }
  return found
}

export function injectionFeeds(text: string, vocabulary: InjectionVocabulary, vocabularySize: number): Feeds {
  // llm_guardrail's terms are ASCII words: full-width and look-alike letters are folded first.
  const { ids, counts } = guardrailTerms(normalizeCharacters(text), vocabulary, vocabularySize)
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
  let probability = outputs.probability[0]
  // Instructions hidden in an encoding (base64, hex, ROT13, reversed, Morse) are judged decoded too.
  for (const payload of decodedPayloads(text)) {
    probability = Math.max(probability, (await run(INJECTION_GRAPH, injectionFeeds(payload, vocabulary, vocabularySize))).probability[0])
  }
  return { answer: injectionAnswer(probability), probability, guardrailProbability: outputs.guardrail_probability[0] }
}
