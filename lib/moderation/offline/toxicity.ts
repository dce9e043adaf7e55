import { cuss } from 'cuss'
import { cuss as cussEs } from 'cuss/es'
import { cuss as cussFr } from 'cuss/fr'
import { cuss as cussIt } from 'cuss/it'
import { cuss as cussPt } from 'cuss/pt'
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity'
import { lexicon as vaderLexicon } from 'vader-sentiment/src/vader_lexicon.js'
import { vaderPolarityScores } from '@/lib/moderation/engines/sentiment/vader'
import { normalizeObfuscation } from './deobfuscate'
import type { Feeds, GraphRunner } from './graph-io'
import { hashBucket } from './hashing'
import { readText, stackedProbability, type StackedTextClassifierFile } from './stacked-text-classifier'

/**
 * Toxicity = lexicon and pattern features computed here (obscenity's English phrase set with its
 * leetspeak and spacing transformers, cuss's sureness ratings in five languages, and phrase
 * families written for this project: threats, insults aimed at a person, identity attacks,
 * sexual content, reported speech), plus hashed word n-grams whose weights were learned from
 * generated texts of the families the lexicons miss, fed to seven logistic heads in `toxicity.onnx`,
 * one per Detoxify metric, in the contract's order.
 */
export const TOXICITY_GRAPH = 'toxicity.onnx'
export const TOXICITY_OUTPUTS = ['toxicity', 'severe_toxicity', 'obscene', 'threat', 'insult', 'identity_attack', 'sexual_explicit'] as const
/** A text is toxic at or above this toxicity score (the toolkit's example threshold is 0.6; 0.5 is the neutral one). */
export const TOXICITY_THRESHOLD = 0.5
export const TOXICITY_MAX_CHARS = 4000

/** obscenity's English terms by what they are: slurs attack identities, sexual terms are sexual content. */
const OBSCENITY_SLURS = new Set(['abeed', 'abo', 'africoon', 'arabush', 'boonga', 'chingchong', 'chink', 'dyke', 'fag', 'kike', 'negro', 'nigger', 'retard', 'spastic', 'tranny'])
const OBSCENITY_SEXUAL = new Set([
  'anal', 'anus', 'bestiality', 'blowjob', 'boob', 'buttplug', 'cock', 'cum', 'deepthroat', 'dick', 'dildo', 'doggystyle',
  'double penetration', 'ejaculate', 'felch', 'fellatio', 'finger bang', 'fisting', 'gangbang', 'handjob', 'hentai', 'incest',
  'jerk off', 'jizz', 'lubejob', 'masturbate', 'orgasm', 'orgy', 'penis', 'porn', 'pussy', 'rape', 'semen', 'sex', 'tit', 'vagina', 'wank',
])

const INSULT_WORDS =
  'idiot|idiots|idiotic|moron|morons|moronic|stupid|dumb|dumbass|loser|losers|pathetic|worthless|useless|ugly|disgusting|clown|imbecile|cretin|' +
  'scum|scumbag|trash|garbage|freak|creep|jerk|incompetent|ignorant|fool|foolish|brainless|clueless|retarded|lame|failure|parasite|pig|rat|snake|' +
  'coward|hypocrite|liar|waste of space|piece of (?:shit|crap|garbage|trash)|nobody|joke|embarrassment|disgrace|vermin|animal|animals|subhuman|dog|' +
  'bitch|bastard|asshole|dickhead|prick|twat|wanker|douche|douchebag|jackass|halfwit|nitwit|numbskull|dimwit|simpleton|degenerate|psycho|lunatic|maniac|' +
  // Superlatives and plural forms of the words above ("the dumbest person here"), and nouns of contempt.
  'dumbest|stupidest|ugliest|laziest|fools|clowns|jerks|creeps|freaks|cowards|liars|pigs|rats|snakes|worm|worms|waste of (?:time|skin|air|oxygen)|buffoon|dunce|airhead|bimbo|weirdo|slob|leech'
const INSULTS = new RegExp(`\\b(?:${INSULT_WORDS})\\b`, 'giu')
const SECOND_PERSON = /\b(?:you|your|you're|youre|ur|u|yourself|ya|thou)\b/iu

const VIOLENCE_VERBS =
  'kill|murder|hurt|shoot|stab|strangle|choke|beat|punch|slap|destroy|burn|hang|drown|bury|slit|smash|rape|torture|gut|hunt down|make you (?:pay|suffer|regret)|shoot up|blow up|run over|break your (?:legs|neck|face|jaw|bones)'
const THREAT_PATTERNS = [
  // First person, future or intent, violence, a person.
  new RegExp(
    `\\b(?:i|we|i'm|im|i am|we're|we are|i'll|ill|we'll|someone|somebody)\\s+(?:will|gonna|going to|'ll|am going to|are going to|want to|wanna|would|should|shall|could|can|might|swear i(?:'ll| will)?)?\\s*(?:\\w+\\s+){0,2}?(?:${VIOLENCE_VERBS})\\s+(?:\\w+\\s+){0,2}?(?:you|u|ya|him|her|them|your|his|their|everyone|every one|all of you|y'all)\\b`,
    'iu',
  ),
  /\b(?:you(?:'re| are|r)?|ur)\s+(?:so\s+)?(?:dead|going to die|gonna die|a dead (?:man|woman)|next)\b/iu,
  /\b(?:i|we)(?:'ll| will| am going to| are going to| gonna)\s+(?:find|hunt down|come for|get)\s+(?:you|u)(?:\s*[.!]|$|\s+and\b)/iu,
  /\b(?:i know where you (?:live|work|sleep)|watch your back|you(?:'ll| will) (?:regret|pay for) (?:this|it|that)|sleep with one eye open|your days are numbered|you won't see (?:it|me) coming|better watch out|count your days)\b/iu,
  /\b(?:i|we)\s+(?:hope|wish|pray)\s+(?:you|u|your (?:\w+ )?(?:family|kids|mother|mom|children))\s+(?:\w+\s+){0,2}?(?:die|dies|get (?:cancer|killed|raped|hit)|burn|suffer|rot|drown|choke)\b/iu,
  /\b(?:gonna|going to|will|i'll)\s+(?:put a bullet|put you in the ground|bash your|break your (?:legs|neck|face|jaw|bones)|cut your|slit your|blow your (?:head|brains))\b/iu,
]
const SELF_HARM_INCITEMENT =
  /\b(?:kill|hang|end|off|unalive|neck|rope|shoot|delete) (?:yo)?urself\b|\bkys\b|\bgo (?:die|drown)\b|\bdrink bleach\b|\bjump off a (?:bridge|cliff|building|roof)\b|\b(?:nobody|no one|no-one) (?:would|will) (?:miss|mourn|care about|notice) you\b|\b(?:no one|nobody) (?:would|will) care if you (?:died|were gone|disappeared)\b|\bslit your wrists\b|\bwhy (?:are you still alive|don't you (?:just )?(?:die|disappear|end it))\b|\byou should (?:just )?(?:die|not exist|never have been born)\b/iu
// \b only knows ASCII word characters, so the Cyrillic phrases stand without it.
const FOREIGN_THREATS =
  /\b(?:te voy a matar|te mato|vas a morir|je vais te tuer|je vais te (?:buter|frapper)|tu vas mourir|ich bringe dich um|ich bring dich um|ich werde dich (?:töten|umbringen)|du bist tot|ti ammazzo|ti uccido|sei morto|vou te matar|vou matar você|eu vou te matar)\b|я тебя убью|убью тебя/iu

const GROUP_WORDS =
  'women|woman|girls|females|men|males|gays?|lesbians?|homosexuals?|queers?|trans(?:gender)? (?:people|women|men)|transgenders?|muslims?|islam|jews?|jewish people|christians?|catholics?|hindus?|sikhs?|atheists?|' +
  'blacks?|black people|whites?|white people|asians?|chinese|mexicans?|latinos?|hispanics?|arabs?|africans?|indians?|immigrants?|refugees?|migrants?|foreigners?|' +
  'gypsies|roma|disabled people|the disabled|autistic people|old people|boomers|fat people|poor people|those people|you people|these people|your kind|their kind|his kind|her kind'
const GROUPS = new RegExp(`\\b(?:${GROUP_WORDS})\\b`, 'iu')
const IDENTITY_ATTACK_PATTERNS = [
  new RegExp(
    `\\b(?:${GROUP_WORDS})\\s+(?:are|is|r)\\s+(?:all\\s+|just\\s+|nothing but\\s+|a bunch of\\s+|such\\s+)?(?:animals|vermin|rats|pigs|dogs|parasites|savages|subhuman|inferior|disgusting|filth|scum|trash|garbage|criminals|terrorists|rapists|thieves|a plague|a disease|cancer|evil|stupid|dirty|worthless|the problem|ruining|destroying|invading)`,
    'iu',
  ),
  new RegExp(`\\b(?:${GROUP_WORDS})\\s+(?:should|must|need to|ought to|deserve to)\\s+(?:all\\s+)?(?:be\\s+)?(?:die|be killed|killed|gassed|deported|banned|exterminated|wiped out|removed|locked up|sterilized|shot|burn|go back|leave|not be allowed|not have rights|disappear)`, 'iu'),
  /\b(?:go back to (?:your|ur) (?:own )?(?:country|countries|continent|jungle|desert|cave)|(?:don't|do not) belong (?:here|in this country)|not (?:real|true) (?:people|humans|men|women)|(?:death|down) to (?:all )?the (?:\w+s)|gas the|white power|heil hitler|race traitor|master race|ethnic cleansing)\b/iu,
  new RegExp(`\\b(?:i|we)\\s+(?:hate|despise|can't stand|cannot stand|loathe)\\s+(?:all\\s+)?(?:${GROUP_WORDS})\\b`, 'iu'),
  new RegExp(`\\b(?:typical|filthy|dirty|stupid|disgusting|lazy|greedy)\\s+(?:${GROUP_WORDS})\\b`, 'iu'),
]
const SEXUAL_PATTERNS =
  /\b(?:send (?:me )?(?:nudes|nude pics|pics of your body)|naked|nude|nudes|horny|have sex|had sex|sleep with (?:me|you)|sex with|make love to|suck my|lick my|touch (?:your|my)self|sexy|strip for|your body|in bed with|get laid|hook ?up|blow ?job|hand ?job|boobs|tits|nipples|erection|aroused|fondle|grope|spread your legs|xxx|onlyfans|camgirl|escort service|sexting)\b/iu
const REPORTED_SPEECH =
  /\b(?:(?:he|she|they|someone|somebody|people|my (?:boss|coworker|colleague|friend|teacher|neighbou?r|brother|sister|dad|mom)|a (?:user|customer|guy|man|woman|kid)|the (?:villain|character|man|woman|guy)) (?:said|says|called|wrote|yelled|told|texted|shouted|posted|commented|keeps calling|threatened)|(?:was|got|been|being) (?:called|told)|in the (?:movie|book|film|song|lyrics|novel|game)|the (?:word|term|phrase|slur)|is it (?:ok|okay|offensive|rude|appropriate) to|what does .{1,40} mean|how (?:should|do|can) i (?:respond|report|deal)|report(?:ed|ing)? (?:this|him|her|them|a user)|quote|quoted|lyrics|means? in (?:english|spanish|french)|(?:report|flag|remove|delete|ban|block|moderate|hide)(?:s|ed|ing)? (?:the |this |that |a |any |their |his |her )?(?:comments?|posts?|messages?|users?|accounts?|content|replies|threads?)|community (?:guidelines|standards|rules)|hate speech|content (?:policy|moderation|warning)|terms of (?:service|use)|moderators?|(?:is|was|counts as) (?:considered )?(?:harassment|bullying|hate speech|a threat|a slur|abuse))\b/iu
// Single quotes too, ended by a quote before a space or punctuation, so that an apostrophe inside ("'you're worthless'") does not end it.
const QUOTED_SPAN = /["“«][^"”»]{2,}["”»]|(?:^|[\s(:])['‘][^'‘’\n]{1,80}?(?:'(?:re|s|t|ll|ve|d|m)\b[^'‘’\n]{0,60}?)?['’](?=[\s.,;:!?)]|$)/u
const HOSTILE_EMOJI = /[\u{1F595}\u{1F92C}\u{1F4A9}\u{1F621}\u{1F620}]/gu
const VIOLENT_EMOJI = /[\u{1F52A}\u{1F52B}\u{1F4A3}\u{2620}\u{1F480}\u{2694}\u{1FA93}]/gu
const SEXUAL_EMOJI = /[\u{1F346}\u{1F351}\u{1F4A6}\u{1F445}\u{1F51E}]/gu
/** Harmless objects of violent verbs: "kill the process", "shoot me an email", "crush the exam". */
const BENIGN_VIOLENCE =
  /\b(?:kill(?:ed|ing)?|shoot|destroy(?:ed)?|crush(?:ed)?|nail(?:ed)?|murder(?:ed)?|slay(?:ed)?|bomb(?:ed)?|smash(?:ed)?)\s+(?:the |this |that |my |it|an? )?(?:process|processes|task|app|server|job|lights?|time|engine|bug|exam|test|interview|presentation|game|level|boss|song|performance|weeds?|email|message|question|photo|pictures?|it|music|mood|vibe|deadline|workout)\b|\bshoot me an? (?:email|message|text|note)\b|\b(?:dying|died|dead) (?:of|from|with) (?:laughter|laughing|embarrassment|boredom)\b|\bkiller (?:app|feature|idea|deal)\b/iu

/** Threats that name no violence: harm implied ("would be a shame if something happened"), watching, knowing where someone is. */
const VEILED_THREAT =
  /\b(?:(?:would|it'd|it would|that'd) be (?:a )?(?:shame|pity|terrible|awful|sad) if (?:something|anything|someone|somebody)|(?:accidents|bad things|things) (?:happen|can happen) to (?:people|those|you|snitches)|people (?:who .{1,30} )?(?:disappear|go missing|get hurt)|i know (?:where|which|what time|when) (?:you|your)|i(?:'ve| have) (?:seen|been watching) (?:where|what time|when|you)|(?:see|find out|wait and see) what happens (?:to you|next|if you)|lock (?:your|her|his|their) doors|(?:careful|think carefully|be careful) (?:who|about who) you(?:'re| are)? (?:crossing|messing with|talking to)|you(?:'ll| will) be sorry|(?:we|i) know where (?:you|your|she|he) (?:live|lives|sleep|work|go)|(?:wouldn't|would not) want anything to happen|i(?:'d| would) hate (?:for|to see) (?:something|anything) (?:to )?happen|nice (?:house|car|family|place|kids|job) you(?:'ve| have)? got(?: there)?|remember what happened to|you never know who(?:'s| is) watching|(?:we|i)(?:'ll| will) be (?:seeing|waiting for) you|(?:this is your|consider this (?:your|a)) (?:last|final|only) warning|you(?:'ve| have) been warned|don't make me come (?:over|down) there|be careful (?:walking|driving|going) home|it(?:'d| would) be a pity|i (?:already )?(?:have|got|know) your (?:home )?address|(?:nice|lovely|pretty|cute) (?:\w+ ){0,2}?(?:house|car|family|place|kids|job|daughter|son|wife|husband|dog|shop|store|business|life)(?: \w+)? you(?:'ve| have)? got|\bbe (?:a )?(?:real |such a |terrible |awful )?(?:shame|pity) if (?:something|anything|someone)|i know (?:where|which|what time|when)(?: \w+){0,2}? (?:you|your)|(?:people|those|anyone|folks|snitches|guys) who [^.]{1,40}(?:tend to|usually|often|always) (?:have|get|end up (?:in|having)) (?:accidents|hurt|into trouble)|think about (?:your|that) (?:family|kids|daughter|son|wife|husband|job|mother)|(?:walks|goes|drives|leaves|gets)(?: \w+){0,5}? (?:the same way|at the same time|alone) every (?:day|afternoon|morning|night|evening)|how small (?:this|the) (?:town|city|neighbou?rhood) (?:really )?is)/iu
/** What violence leaves behind, promised to someone: "you'll leave in an ambulance", "put you in the ground". */
const HARM_OUTCOME =
  /\b(?:i|we|i'll|we'll|i'm|we're|you(?:'ll| will)?)\b(?:\s+\S+){0,8}?\s+(?:in an? (?:ambulance|body bag|coffin|wheelchair|hospital bed)|(?:in|into) the (?:ground|grave|hospital|morgue|river)|six feet under|(?:in|into) (?:a|an|the) (?:grave|coffin|hospital)|(?:snap|break|crack|smash|cut|slit) (?:your|his|her|their) (?:neck|throat|skull|teeth|face|legs|arms|fingers)|(?:cut|slice|gut) (?:you|him|her|them) (?:open|up)|with (?:bats|knives|guns|a gun|a knife|a bat|a crowbar))/iu
/** Sexual remarks aimed at someone: their body or clothes, sexual favours asked for, propositions. */
const SEXUAL_REMARK =
  /\b(?:sit on my (?:lap|face)|(?:with )?nothing on\b|show (?:a (?:bit|little) )?more skin|what i(?:'d| would) do to you|rip (?:your|her) clothes|take (?:it|that|your \w+) off for me|(?:in|wear) (?:that|the|those) (?:tight |short |little )?(?:skirt|dress|top|pants|jeans)|turn around for me|you know what you (?:have|need) to do (?:for me|tonight)|send (?:me )?(?:a )?(?:pic|pics|photo|photos)(?: of you)?(?: in| without)|(?:doing|does) things to me|your (?:body|ass|legs|lips|chest)|(?:hey|hi) (?:sweetheart|babe|sexy|honey)\b.{0,40}\b(?:lap|bed|body|tonight)|come (?:over|to my room) tonight|(?:bet|i bet) (?:you(?:'re| are)|she(?:'s| is)) (?:wild|great|good|a freak|fun) in bed|what are you wearing(?: right now)?|(?:come|back) (?:back )?to my (?:place|room|hotel)|nice (?:rack|ass|butt|legs|body)|(?:those|your) (?:lips|curves|hips)\b.{0,30}\b(?:want|need|drive|crazy|taste)|sit on my|(?:i want|wanna) (?:to )?(?:touch|taste|feel) you|you(?:'d| would) look (?:better|good|great) (?:naked|without)|sleep (?:your way|with me) (?:to|for)|(?:your|her) (?:great|nice|big|amazing) (?:chest|boobs|figure|curves|behind|rear|thighs)\b|(?:love it|like it|watch(?:ing)? you) when you bend over|for a private (?:visit|show|dance)|do that at my place|your (?:skirt|dress|top|uniform) (?:is|looks) (?:so )?(?:short|tight|distracting)|(?:babe|sweetie|sweetheart|honey|baby)\b.{0,40}\b(?:wear|body|bed|skirt|dress|lap|legs|naked|tonight))/iu
/** A sweeping claim about a group of people (the group, then within a few words a degrading predicate). */
/** What a group is said to be unable to do ("women just aren't built for leadership"). */
const GROUP_INCAPABLE = new RegExp(`\\b(?:${GROUP_WORDS})\\s+(?:just |simply |really )?(?:aren't|are not|isn't|is not|can't be|cannot be|will never be) (?:built|made|cut out|fit|smart enough|capable enough|suited|good enough) (?:for|to)\\b`, 'iu')
const GROUP_GENERALISATION = new RegExp(
  `\\b(?:${GROUP_WORDS}|people like (?:them|you|that)|all of them|every (?:single )?one of (?:them|those \\w+))\\b(?:\\s+\\S+){0,5}?\\s+(?:are|is|belong|should|shouldn't|can't|cannot|need to be|only|breed|have no|never|always|don't deserve|ruin|steal|bring)\\b(?:\\s+\\S+){0,4}?\\s*(?:too emotional|too lazy|too stupid|too weak|a dump|choose to live|mentally ill|sick|diseased|thieves|thief|drunks?|lazy|leeches?|parasites?|burden|waste|useless|incompatible|dangerous|criminals?|no morals|trusted|confused|in the kitchen|allowed|breed|rats|vote|benefits|inferior|dirty|fixed|cured|stupid|violent|liars?|animals)\\b`,
  'iu',
)
/** Put-downs dressed as praise or jokes. */
const SARCASTIC_PUT_DOWN =
  /\b(?:said no one ever|nice (?:going|job|one),? (?:genius|einstein|sherlock)|(?:thanks|great job|well done|bravo|congrats?|congratulations),? (?:genius|einstein|sherlock|captain obvious)|congrat\w* on being|(?:genius|brilliant|smartest) (?:take|idea|person alive)|(?:the|our) village idiot|i(?:'d| would) explain it to you but|can't (?:even )?tie (?:his|her|your|their) own shoes|takes (?:real )?talent to be (?:this|so)|oh (?:sure|great|brilliant|wow),? (?:because )?(?:you(?:'re| are)|the expert|another))/iu
/** Contempt without insult words: comparisons and sayings that demean a person. */
const DEMEANING_COMPARISON =
  /\b(?:half a brain|(?:iq|intelligence) (?:of|drops|lower than)|(?:dirt|gum|mud|dog shit) on my shoe|rock you (?:came|crawled) from|waste of (?:space|oxygen|air|skin|money)|reasoning skills of|brain cells? (?:to rub|between)|(?:less|lower) than (?:the )?(?:dirt|a worm|garbage|an insect)|crawl back (?:under|into)|nobody (?:with|asked|wants|likes|cares)|(?:everyone|everybody) (?:hates|laughs at) you|spineless|talentless|braindead|brain-dead)/iu
/** Wishing death or self-harm on someone without the words "kill yourself". */
const DEATH_WISH =
  /\b(?:end it (?:already|all|now)|(?:stop|stopped) breathing|jump (?:in front of|off) (?:a|the)|take all (?:the|your|those) pills|(?:world|everyone) (?:would be|is) better (?:off )?(?:without you|if you (?:died|were dead|weren't here|disappeared|stopped))|do (?:us|everyone|the world) a favou?r and (?:die|disappear|end|leave)|hope you (?:die|rot|choke|never wake up))/iu
/**
 * Seventeenth round: people described as vermin, disease, livestock or refuse ("the protesters are cockroaches", "he's
 * a parasite feeding off his family"), or to be disposed of as such ("hose the whole lot of them into the river").
 */
const DEHUMANISING_NOUNS =
  'cockroach(?:es)?|roach(?:es)?|rats?|vermin|parasites?|leech(?:es)?|maggots?|lice|locusts?|termites?|cancer|a cancer|tumou?rs?|plague|disease|diseases|virus|infestation|swarm|cattle|livestock|sheep|pigs?|apes?|monkeys?|animals|beasts|savages|subhumans?|garbage|trash|filth|sewage|scum|waste|germs?|bacteria|mongrels?|dogs|hyenas|snakes|insects|bugs|weeds'
const DEHUMANISING = new RegExp(
  `\\b(?:he|she|they|you|those|these|(?:the|those|these|all (?:the|those|these)|our|your) (?:\\w+ )?(?:people|folks|protesters|tourists|homeless|neighbou?rs|fans|voters|liberals|conservatives|leftists|right-wingers|boomers|kids|teenagers|workers|migrants|camps|crowds?|mobs?|lot|bunch|types|ones|others|locals|students|tenants|users|players|politicians|followers|supporters)|${GROUP_WORDS})(?:'re|'s| are| is| were| was) (?:(?:just|all|nothing but|like|no better than|basically|literally|an?(?: \\w+)?|a (?:bunch|pack|herd|swarm) of) ){0,4}(?:${DEHUMANISING_NOUNS})\\b(?![ -](?:survivors?|patients?|farmers?|research|ward|doctors?|nurses?|breeders?|owners?|lovers?|sign|season))|\\b(?:hose|flush|exterminate|wipe out|gas|cull|fumigate|smoke out|stomp on|round up|drown)\\b(?: \\w+){0,3}? (?:them|him|her|the (?:whole )?lot(?: of them)?|all of them|every (?:last )?one of them|these people|those people)\\b|\\b(?:he|she|they|you)(?:'s|'re| is| are)(?: not|n't) (?:even )?(?:a )?(?:real )?(?:person|human(?: being)?|people)(?=[.!,;]|$)|\\b(?:breed|multiply) like (?:rats|rabbits|cockroaches|vermin|flies)\\b|\\bcrawl(?:s|ing)? out of (?:the|a|their) (?:drain|sewer|gutter)`,
  'iu',
)
/**
 * Eighteenth round: sarcasm aimed at people. Sarcasm is marked by its idioms (an interjection opening mock agreement,
 * mock awe, "must be exhausting", "call the newspapers", scare quotes around a word, an eye-roll) and it is toxic when
 * it is aimed at someone: a person spoken to or named, "the guy who …", a group or a trade. Sarcasm at the weather or a
 * printer has no such target.
 */
const SARCASM_MARKER =
  /(?:^|[.!?]\s+|\n)(?:oh|ah|wow|well|gee|golly|sure|yeah|right|great|fantastic|brilliant|wonderful|amazing|what a (?:shock|surprise)|shocking|color me shocked|big surprise)\b[,.!]*\s+(?:yes|yeah|sure|absolutely|great|fantastic|brilliant|wonderful|amazing|another|finally|what|how|of course|because)\b|\b(?:truly|real|such) (?:talent|genius|inspiring|visionary|a hero|heroes|an inspiration|a gift)\b|\bwe (?:are|were) (?:truly |so )?(?:blessed|honou?red|not worthy)\b|\bmust be (?:so |really |very |sooo* )?(?:exhausting|hard|tough|difficult|nice|great|lovely|amazing)\b|\bcall the (?:newspapers?|press|papers|news|guinness)\b|\b(?:a|his|her|their|new) personal best\b|\bslow clap\b|\bbless (?:your|his|her|their) (?:heart|little heart|soul)\b|\b(?:the )?(?:hardest|most) (?:working|productive|talented) (?:generation|people|department|team)\b|\b(?:greatest|biggest|finest) contribution\b|\bheroes?,? (?:every|all|each) (?:one|last one|single one)\b|\bso+ (?:exhausting|hard|difficult|brave)\b|\bworld[- ]famous for\b|\bwhat would we do without\b|\b(?:famous|known) for (?:understanding|their|his|her) \w+|(?:^|\s)['‘]\w+(?:\s\w+){0,3}['’](?=[\s.,!?]|$)|🙄|👏/iu
const SARCASM_TARGET =
  /\b(?:you|your|ur|u)\b|\b(?:the|this|that|our|another|a|some) (?:guy|girl|man|woman|person|dude|lady|genius|reviewer|coworker|colleague|intern|boss|manager|department|team|waiter|waitress|driver|customer|nurse|teacher|kid|people|folks|crowd|lot)s?\b|\b(?:mr|mrs|ms|miss)\.? |\b(?:boomers|millennials|gen ?z|zoomers|hr|management|nurses|teachers|cops|lawyers|politicians|engineers|interns|waiters|immigrants|tourists|women|men|liberals|conservatives|americans|brits|french|germans|italians|muslims|christians|jews|vegans)\b/iu
/** Someone named mid-sentence, then what they did ("Oh fantastic, Derek finally pushed his code"); case matters here. */
const NAMED_PERSON = /(?<=\p{Ll}[,;]? )\p{Lu}\p{Ll}+(?= (?:finally|forgot|pushed|broke|thinks|said|is|was|has|did|really|again|strikes)\b)/u
/**
 * Eighteenth round: unwanted attention without sexual words (the EEOC's kinds): remarks on a body or clothes,
 * propositions, photo requests, persistence after no answer, a favour for a promotion, said to or about a colleague,
 * a stranger or someone named. Between partners ("my wife", "missed you, babe") the same words are welcome.
 */
const UNWANTED_ATTENTION =
  /\bsend (?:me )?(?:a |some )?(?:pic|pics|photo|photos|selfie|selfies|picture|pictures)\b|\bwhat (?:you(?:'re| are)|ur|u r|she(?:'s| is)) wearing\b|\b(?:you(?:'d| would)|she(?:'d| would)) (?:be|look) (?:so )?(?:much )?(?:prettier|hotter|cuter|sexier|better)\b|\bsmile (?:more|for me)\b|\bcould(?:n'?t| not) stop (?:watching|staring|looking|checking)\b|\bjust for the view\b|\b(?:those|that|her|your) (?:leggings|jeans|shorts|skirt|dress|top|uniform|outfit|figure|curves|legs)\b|\bover (?:drinks|dinner|a drink)\b.{0,40}\b(?:my place|my room|my hotel|two of us|alone)\b|\bjust (?:the )?two of us\b|\bafter hours\b|\bdoor (?:shut|closed|locked)\b|\b(?:keep|kept|will keep|i'?ll keep) (?:texting|messaging|calling|asking)\b|\bcan'?t (?:dodge|avoid|ignore|escape|hide from) me\b|\byou know how this works\b|\bthe way i like (?:her|him|my (?:women|men|girls|ladies))\b|\b(?:check|take) my (?:vitals|temperature|pulse)\b|\bpersonal attention\b|\bhouse calls?\b|\bsomething'?s up\b|\bhandle something bigger\b|\bopen (?:up )?(?:those|her|your) drawers\b|😏|😉/iu
const ATTENTION_CONTEXT =
  /\b(?:intern|coworker|co-worker|colleague|new (?:girl|guy|hire|nurse|barista|teacher|intern|secretary|assistant)|promotion|raise|at work|office|standup|stand-up|meeting|boss|manager|ms\.?|mrs\.?|miss|from (?:accounting|hr|sales|marketing|finance|it)|sweetheart|sweetie|honey|doll|gym|treadmill|(?:the|that|this) (?:nurse|barista|waitress|cashier|receptionist|girl|woman|lady)|ignoring (?:me|my)|my messages|@\w+|presentation|tutorial)\b/iu
/** A person addressed or named by their place ("Dear Emma", "Emma from accounting"); case matters here. */
const NAMED_AT_WORK = /\b[Dd]ear \p{Lu}\p{Ll}+|\b\p{Lu}\p{Ll}+ from (?:accounting|HR|hr|sales|marketing|finance|IT|legal|reception)\b/u
const PARTNER =
  /\b(?:my (?:wife|husband|girlfriend|boyfriend|partner|fianc[ée]e?|spouse)|anniversary|missed you|miss you|date night|our (?:wedding|date|kids)|love you)\b/iu
/** Eighteenth round: patronising remarks that treat the person as a child or a fool, without insult words. */
const CONDESCENSION =
  /\blet me (?:explain|say|spell|put) (?:this|it|that)(?: \w+)? (?:slowly|simply|again|in small words|for you)\b|\b(?:since|because|bc|cuz|as) (?:the )?(?:longer|long|big|bigger) words\b|\b(?:the )?adults are talking\b|\bgo (?:colou?r|play with your|play outside)\b|\bin crayon\b|\bdon'?t (?:strain|hurt) yourself\b|\bdid (?:you|u) (?:even )?(?:finish|go to|pass|graduate) (?:high )?school\b|\b(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth)[- ]grade(?:r|rs)?\b|\boh,? (?:honey|sweetie|sweetheart|dear|buddy|bless)\b|\bleave (?:it|this|that|the \w+) to (?:people|someone|the adults|those|grown-?ups) who\b|\b(?:unable|able|bothered) to read\b|\bapparently (?:challenges?|confuses?|baffles?) you\b|\b(?:try|trying) to keep up\b|\bso (?:you|u) can keep up\b|\bbig words\b|\buse your (?:brain|head|words)\b|\bwords are hard\b|\bis (?:this|that) too (?:hard|difficult|complicated) for you\b|\bsmall words\b|\byou poor (?:thing|dear|soul)\b|\b(?:cute|adorable) that you think\b|\bper my last (?:\w+ )?e-?mails?\b.{0,60}\b(?:assume|apparently|again)\b|\b(?:i'?ll|let me) (?:draw|write) (?:it|you) (?:a picture|in crayon|out)\b/iu
/** Praise or thanks around a put-down: the compliment frames a deficit ("Congrats on the promotion! Amazing what you can achieve with zero talent"). */
const MOCK_PRAISE_FRAME =
  /\b(?:wow|congrat\w*|amazing|impressive|incredible|brilliant|bravo|so brave|how brave|adorable|cute|precious|truly|real talent|great take|genius|well done|what an achievement|i (?:really )?admire|love how|nice try|bless (?:your|his|her) heart|champ|sweetie|sunshine|buddy|pal)\b/iu
const PUT_DOWN_CUE =
  /\b(?:zero|no|without any|lack of|not a shred of|not an ounce of) (?:talent|brains?|skills?|taste|personality|friends|charm|self-awareness)|\b(?:single|one|last|only|remaining|two) (?:working )?brain cells?|\bnever (?:opened|read|held|seen) a (?:book|textbook|dictionary|gym)|\bwith (?:that|your|a) (?:face|voice|body|haircut|brain|iq)\b|\bcrayons? (?:handy|at home|for you)|\bfound the (?:keyboard|caps lock|on switch)|\b(?:spell|read|count|tie)\b.{0,30}\b(?:right|correctly|unassisted|by yourself|on your own|all by yourself)\b|\bfeels? sorry for you\b|\bwant to (?:fast|throw up|vomit|gouge|cry)\b|\bfor someone who (?:has )?(?:clearly |obviously )?(?:never|can't|cannot|doesn't|knows nothing)|\b(?:outdone|outdid) (?:itself|themselves|yourself) with you\b|\bdon't strain\b|\b(?:low|lowered) the bar\b|\bparticipation (?:trophy|award)\b|\bthe bar (?:is|was) (?:on the floor|so low|underground)\b/iu
/** A kind deed after words that open like a threat ("I know where you live, so I'll drop the keys off"). */
const KIND_DEED_AFTER =
  /\b(?:so|and|then|because) (?:i(?:'ll|'d| will| would| can| could)?|we(?:'ll| will| can)?) (?:just |happily |gladly |be happy to |be glad to )?(?:drop|bring|pop|send|pick (?:you )?up|deliver|leave|swing by|come by|return|give|lend|save|cook|bake|buy you|treat you|help|get you|keep (?:a|your) (?:seat|spot|plate))\b|\bwith (?:your|a) (?:favou?rite|birthday|surprise)\b|\b(?:so|and) (?:you|we) (?:can|could) (?:catch up|celebrate|have (?:coffee|lunch|dinner))\b/iu
/** Medical, sexual-health and educational language: body and sex words there are not sexual content. */
const CLINICAL_CONTEXT =
  /\b(?:patients?|doctor|gp|gynaecolog\w*|gynecolog\w*|urolog\w*|clinic(?:al)?|symptoms?|diagnos\w+|treat(?:ed|ment|s)?|infections?|std|sti|stis|condoms?|contracepti\w+|menopause|puberty|pregnan\w+|breastfeed\w*|examination|self-exam\w*|screening|dysfunction|discharge|hormone|oestrogen|estrogen|therapy|health|healthcare|medical|medication|exercises?|education|consent|sexual development|anatomy|childbirth|referred|disease)\b/iu
/** Kind words aimed at the reader: praise and thanks are what "you" most often comes with. */
const KIND_TO_A_PERSON =
  /\b(?:you(?:'re| are)?|your|u r)\b(?:\s+\S+){0,3}?\s+(?:wonderful|kind|amazing|great|lovely|brilliant|talented|best|awesome|fantastic|beautiful|gorgeous|sweet|generous|helpful|smart|clever|inspiring|good heart|a star|a gem|a legend|the best)\b|\b(?:thank you|thanks|thx|appreciate (?:you|it|your)|proud of you|love (?:you|your)|meant a lot|made my (?:day|week))\b/iu

/** Sympathy and concern: negative words next to "you" that are not aimed at the person ("sorry you had a terrible day"). */
const SYMPATHY =
  /\b(?:sorry (?:to hear|for|about|that|you)|so sorry|hope (?:you|your) (?:feel|get|are)|get well|take care|that (?:must|sounds)|condolences|are you (?:ok|okay|alright|all right)|feel better|you poor thing|not your fault|you(?:'ve| have) been through|i'm here for you|hang in there)\b/iu
/** A strongly negative word in VADER's lexicon (valence -1.5 or lower: "repulsive", "pathetic", "vile"; not "sad" or "tired"). */
const STRONGLY_NEGATIVE = -1.5
const PERSON_WORDS = new Set(['you', 'your', "you're", 'youre', 'ur', 'u', 'yourself', 'ya', 'yours'])
const GROUP_AT_WORD = new RegExp(`^(?:${GROUP_WORDS})$`, 'iu')

/**
 * An insult word in a sentence that speaks to someone ("you", "your", "yourself"), not reported or quoted: the
 * insult lists alone cannot tell "what a clown you are" from "the clown at the party", and the aimed-insult pattern
 * only reads "you are a(n) X". Per sentence, so that a friendly sentence beside a quoted insult does not count.
 */
function insultInAddressedSentence(text: string): boolean {
  return text.split(/[.!?;\n]+/u).some((sentence) => {
    if (!SECOND_PERSON_WORD.test(sentence) || REPORTED_SPEECH.test(sentence) || QUOTED_SPAN.test(sentence)) return false
    INSULTS.lastIndex = 0
    return INSULTS.test(sentence)
  })
}
const SECOND_PERSON_WORD = /\b(?:you|your|you're|youre|you've|you'd|you'll|ur|u|yourself|ya)\b/iu

/**
 * Negative words aimed at someone: VADER's strongly negative words within four words after "you"/"your", and
 * within six words after a group's name, counted on the words of each sentence. This reaches insults and
 * identity attacks that use no word of the insult lists ("your mind is as repulsive as your face").
 */
function aimedNegativity(text: string): { atPerson: number; atGroup: number } {
  let atPerson = 0
  let atGroup = 0
  for (const sentence of text.toLowerCase().split(/[.!?;\n]+/u)) {
    const words = sentence.match(/[\p{L}']+/gu) ?? []
    let lastPerson = -99
    let lastGroup = -99
    words.forEach((word, i) => {
      if (PERSON_WORDS.has(word)) lastPerson = i
      if (GROUP_AT_WORD.test(word) || (i > 0 && GROUP_AT_WORD.test(`${words[i - 1]} ${word}`))) lastGroup = i
      const valence = Object.hasOwn(vaderLexicon, word) ? vaderLexicon[word] : 0
      if (valence > STRONGLY_NEGATIVE) return
      if (i - lastPerson <= 4) atPerson++
      if (i - lastGroup <= 6) atGroup++
    })
  }
  return { atPerson, atGroup }
}

export const TOXICITY_FEATURES = [
  'obscenity profanity',
  'obscenity sexual term',
  'obscenity slur',
  'cuss sure (2)',
  'cuss likely (1)',
  'cuss other languages (2)',
  'insult word',
  'second person',
  'insult aimed at a person',
  'threat',
  'threat in another language',
  'self-harm incitement',
  'group mentioned',
  'identity attack',
  'sexual phrase',
  'reported or quoted speech',
  'harmless use of a violent word',
  'shouting',
  'exclamations',
  'hostile emoji',
  'violent emoji',
  'sexual emoji',
  'log length',
  'veiled threat',
  'sexual remark at a person',
  'generalisation about a group',
  'sarcastic put-down',
  'demeaning comparison',
  'death wish',
  'clinical or educational context',
  'kind words to a person',
  'positive sentiment (VADER)',
  'negative sentiment (VADER)',
  'strongly negative words aimed at a person',
  'strongly negative words about a group',
  'sympathy or concern',
  'insult word in a sentence spoken to someone',
  'dehumanising comparison',
  'praise framing a put-down',
  'kind deed after a threat-like opening',
  'sarcasm aimed at people',
  'unwanted attention',
  'condescension',
  'watching the target',
  'harm foretold',
  'threat to expose someone',
] as const

/**
 * Nineteenth round: threats that name no violence and no weapon. The writer shows that the target is watched or found
 * ("I was two cars behind you", "it only took me two days to find you again", "changing your number won't help").
 */
const WATCHING_THE_TARGET =
  /\b(?:i|we)(?:'ve| have)? (?:was|were|drove|walked|sat|parked|stood|waited|followed|watched|been watching|been following|saw|seen|noticed)\b[^.!?\n]{0,40}?\b(?:behind you|outside your|past your|near your|across (?:the street )?from your|by your (?:house|place|door|car|office|school|work)|in front of your|right there|the whole (?:time|way home)|you (?:leave|leaving|get home|getting home|walk|walking|come out|coming out))\b|\b(?:it )?(?:only )?took (?:me|us) (?:\w+ ){0,2}(?:days?|hours?|minutes?|weeks?) to find you\b|\b(?:i|we)(?:'ll| will) (?:always|still|eventually) find (?:a way to (?:reach|get to) )?you\b|\b(?:changing|moving|blocking|deleting|hiding)\b[^.!?\n]{0,30}\b(?:won't|will not|doesn't|does not|isn't going to) (?:help|save you|stop me|change anything)\b|\byou can(?:'t|not) hide(?: from (?:me|us))?\b|\byou didn't (?:notice|see) me\b|\bi(?:'m| am) (?:always|never far|closer than you think)\b|\b(?:nice|cute|lovely|pretty) (?:\w+ ){0,2}?(?:house|place|apartment|flat|car|porch|garden|door) (?:on|at|you've got|you have)\b|\bi(?:'ll| will) be (?:watching|seeing you|around|waiting|outside)\b|\b(?:who(?:'s| is) around you|looks? over your shoulder|something (?:for you )?to think about|see where that gets you|gets (?:pretty |really |very )?(?:quiet|dark|lonely) (?:out |over )?there|i'd hate for (?:you|something|anything))\b|\byou (?:still )?(?:park|walk|jog|run|leave|get home|drive|go|take|drop|pick up)\b[^.!?\n]{0,60}\b(?:every (?:morning|night|day|evening|week|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|on (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)|each (?:morning|night|day|evening))\b/iu
/** Harm foretold to someone, their people or their things, in plain words ("your garage is going to catch fire"). */
const HARM_FORETOLD =
  /\b(?:your|his|her|their) (?:\w+ ){0,2}?(?:car|house|home|garage|shop|store|business|office|dog|cat|pet|family|kids|children|sister|brother|mother|mom|father|dad|wife|husband|girlfriend|boyfriend|daughter|son|windows|tires|tyres)\b[^.!?\n]{0,30}?\b(?:is|are|will be|is going to|are going to|might|could|would) (?:\w+ )?(?:catch fire|burn|go up in (?:flames|smoke)|be (?:a pile of )?ashes|get hurt|be hurt|pay for (?:it|this|that)|be the one who pays|have an accident|disappear|go missing|not be safe|never be the same|be next)\b|\byour (?:[\w'-]+ ){1,3}?(?:is|are|will be|is going to|are going to|might|could|would|will) (?:\w+ )?(?:catch fire|burn(?: down)?|go up in (?:flames|smoke)|be (?:a pile of )?ashes|burn to the ground)\b|\bthe one who pays\b|\bnever (?:feel|be) safe\b|\b(?:tend|tends) to regret\b|\bwhile you still (?:have|can)\b|\byour last (?:quiet|peaceful|good|happy|calm) (?:evening|night|day|weekend|week)\b|\bwon't be (?:walking|coming|going) (?:out|home|anywhere)\b|\bsettle (?:it|this|things) in person\b|\bwhat (?:will|might|could|is going to) happen to you\b|\b(?:the least|only the beginning|just the start) of what(?:'s| is| will)? (?:going to )?happen\b|\bone of these (?:nights|days)\b[^.!?\n]{0,40}\byour\b|\b(?:poison|shoot|run over|drown|hurt|kill) (?:that|your) (?:\w+ )?(?:dog|cat|pet|horse)\b|\b(?:deserve|deserves|need|needs) to (?:be )?(?:hit|hurt|beaten|punished|taught a lesson)\b/iu
/** A threat to expose someone: their employer, family or congregation told, their details or pictures posted. */
const EXPOSURE_THREAT =
  /\b(?:your|his|her) (?:boss|manager|employer|supervisor|company|hr(?: department)?|landlord|school|teacher|principal|church|pastor|congregation|wife|husband|partner|girlfriend|boyfriend|parents|mom|mum|dad|family|kids|colleagues|coworkers|followers|clients|neighbou?rs)\b[^.!?\n]{0,30}?\b(?:is|are|will be|is going to|are going to|is about to|are about to|might|would) (?:\w+ )?(?:getting|get|see|hear|learn|find out|know|receive|be (?:getting|receiving|seeing|hearing))\b|\bhow would (?:your|his|her) (?:\w+ ){0,2}?(?:feel|react|like it) if (?:they|he|she|it) (?:saw|found out|knew|learned|heard|got)\b|\b(?:i(?:'ve| have)? (?:got|kept|saved|have) (?:the )?(?:screenshots|photos|pictures|receipts|recordings|videos|messages)|everyone (?:here |in (?:this|the) \w+ )?(?:is about to|will|is going to) (?:learn|know|see|find out)(?: about)? your)\b|\b(?:post|share|publish|leak|send|spread|forward)(?:s|ed|ing)? (?:\w+ ){0,2}?your (?:\w+ ){0,2}?(?:address|number|phone number|photos|pictures|nudes|messages|dms|secrets|real name|details|location)\b|\b(?:would|will) be (?:\w+ )?(?:interested|curious|surprised|shocked|thrilled) to (?:see|know|hear|learn|find out)\b|\b(?:i(?:'ll| will| am going to|'m going to|'m gonna)|i'm) (?:tell|telling|e-?mail|e-?mailing|call|calling|message|messaging|inform|informing|show|showing|write|writing to) (?:\w+ ){0,2}?(?:your|the whole|everyone|all your)\b[^.!?\n]{0,50}?\b(?:what|about|exactly|how|who)\b|\bone (?:e-?mail|call|message|phone call|post|word|letter) to (?:your|the)\b|\bi (?:still )?have (?:the|your|those|all the|all your) (?:\w+ )?(?:photos|pictures|videos|messages|screenshots|recordings|texts)\b/iu

let matcher: RegExpMatcher | undefined
function obscenityMatcher(): RegExpMatcher {
  matcher ??= new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers })
  return matcher
}

/** Lowercased words and adjacent word pairs, the keys of the cuss lexicons. */
function lexiconKeys(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{M}']+/gu) ?? []
  return [...words, ...words.slice(1).map((w, i) => `${words[i]} ${w}`)]
}

function ratingCounts(keys: string[], lexicon: Record<string, number>): [number, number] {
  let sure = 0
  let likely = 0
  for (const key of keys) {
    if (!Object.hasOwn(lexicon, key)) continue
    if (lexicon[key] === 2) sure++
    else if (lexicon[key] === 1) likely++
  }
  return [sure, likely]
}

const FOREIGN_LEXICONS = [cussEs, cussFr, cussIt, cussPt]

/** Features of the text with its obfuscations undone ("f u c k", "sh!t", look-alike letters, full-width forms). */
export function toxicityFeatures(input: string): number[] {
  const text = normalizeObfuscation(input.slice(0, TOXICITY_MAX_CHARS))
  const matched = obscenityMatcher()
    .getAllMatches(text)
    .map((m) => englishDataset.getPayloadWithPhraseMetadata(m).phraseMetadata?.originalWord ?? '')
  const slurs = matched.filter((w) => OBSCENITY_SLURS.has(w)).length
  const sexual = matched.filter((w) => OBSCENITY_SEXUAL.has(w)).length
  const keys = lexiconKeys(text)
  const [sure, likely] = ratingCounts(keys, cuss)
  const foreignSure = FOREIGN_LEXICONS.reduce((n, lexicon) => n + ratingCounts(keys, lexicon)[0], 0)
  const insults = (text.match(INSULTS) ?? []).length
  const secondPerson = SECOND_PERSON.test(text)
  const aimedInsult =
    new RegExp(`\\b(?:you(?:'re| are|r)?|ur|u r|u|yo?u'?re? such an?|you (?:stupid|dumb|fucking|little|absolute|complete|total|worthless|pathetic|ugly|fat))\\s+(?:a |an |such an? |so |the |fucking |absolute |complete |total |little |big |utter )*(?:${INSULT_WORDS})\\b`, 'iu').test(text) ||
    new RegExp(`\\b(?:${INSULT_WORDS})\\s+(?:like you|such as yourself)\\b|\\b(?:shut up|stfu|get lost|screw you|fuck you|fuck off|go to hell|nobody (?:likes|cares about) you|you suck|you make me sick)\\b`, 'iu').test(text)
  const letters = text.match(/\p{L}/gu) ?? []
  const upper = letters.filter((c) => c !== c.toLowerCase()).length
  const count = (pattern: RegExp) => (text.match(pattern) ?? []).length
  const flag = (value: boolean) => (value ? 1 : 0)
  const log = (n: number) => Math.log1p(n)
  const sentiment = vaderPolarityScores(text)
  const clinical = CLINICAL_CONTEXT.test(text)
  const aimed = aimedNegativity(text)
  return [
    log(matched.length - slurs - sexual),
    // Body and sex words in medical or educational text are not sexual content.
    clinical ? 0 : log(sexual),
    log(slurs),
    log(sure),
    log(likely),
    log(foreignSure),
    log(insults),
    flag(secondPerson),
    flag(aimedInsult),
    flag(THREAT_PATTERNS.some((p) => p.test(text)) || HARM_OUTCOME.test(text)),
    flag(FOREIGN_THREATS.test(text)),
    flag(SELF_HARM_INCITEMENT.test(text)),
    flag(GROUPS.test(text)),
    flag(IDENTITY_ATTACK_PATTERNS.some((p) => p.test(text))),
    flag(SEXUAL_PATTERNS.test(text) && !clinical),
    flag(REPORTED_SPEECH.test(text) || QUOTED_SPAN.test(text)),
    flag(BENIGN_VIOLENCE.test(text)),
    letters.length >= 8 ? upper / letters.length : 0,
    Math.min(count(/!/g), 5) / 5,
    log(count(HOSTILE_EMOJI)),
    log(count(VIOLENT_EMOJI)),
    log(count(SEXUAL_EMOJI)),
    Math.log1p(text.length) / 6,
    flag(VEILED_THREAT.test(text)),
    flag(SEXUAL_REMARK.test(text)),
    flag(GROUP_GENERALISATION.test(text) || GROUP_INCAPABLE.test(text)),
    flag(SARCASTIC_PUT_DOWN.test(text)),
    flag(DEMEANING_COMPARISON.test(text)),
    flag(DEATH_WISH.test(text)),
    flag(clinical),
    flag(KIND_TO_A_PERSON.test(text)),
    Math.max(0, sentiment.compound),
    Math.max(0, -sentiment.compound),
    log(aimed.atPerson),
    log(aimed.atGroup),
    flag(SYMPATHY.test(text)),
    flag(insults > 0 && insultInAddressedSentence(text)),
    flag(DEHUMANISING.test(text)),
    flag(MOCK_PRAISE_FRAME.test(text) && PUT_DOWN_CUE.test(text)),
    flag(KIND_DEED_AFTER.test(text)),
    flag(SARCASM_MARKER.test(text) && (SARCASM_TARGET.test(text) || NAMED_PERSON.test(text))),
    flag(UNWANTED_ATTENTION.test(text) && (ATTENTION_CONTEXT.test(text) || NAMED_AT_WORK.test(text)) && !PARTNER.test(text)),
    flag(CONDESCENSION.test(text)),
    flag(WATCHING_THE_TARGET.test(text)),
    flag(HARM_FORETOLD.test(text)),
    flag(EXPOSURE_THREAT.test(text)),
  ]
}

/**
 * Word n-grams with learned weights, beside the named features: lexicons and patterns list phrasings one by one,
 * while these weights learn from the generated families which words and word pairs carry an attack ("not fully
 * human", "you least expect", "after hours") and which carry its report or its clinical use. Unigrams and bigrams
 * of the de-obfuscated, lowercased words, hashed into 2^12 buckets (bucket 0 unused), each 1/sqrt(n) so length
 * does not count.
 */
export const TOXICITY_NGRAM_BITS = 12
export const TOXICITY_INPUT_SIZE = TOXICITY_FEATURES.length + 2 ** TOXICITY_NGRAM_BITS

/** The hashed n-grams as [bucket, value] pairs (buckets may repeat: their values add). */
export function toxicityNgrams(input: string): [number, number][] {
  const words = normalizeObfuscation(input.slice(0, TOXICITY_MAX_CHARS)).toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []
  const grams = [...words.map((w) => `w ${w}`), ...words.slice(1).map((w, i) => `b ${words[i]} ${w}`)]
  const value = grams.length ? 1 / Math.sqrt(grams.length) : 0
  return grams.map((g) => [hashBucket(g, TOXICITY_NGRAM_BITS), value])
}

/** The graph's input: the named features, then the n-gram buckets. */
export function toxicityInput(text: string): Float32Array {
  const input = new Float32Array(TOXICITY_INPUT_SIZE)
  input.set(toxicityFeatures(text))
  for (const [bucket, value] of toxicityNgrams(text)) input[TOXICITY_FEATURES.length + bucket] += value
  return input
}

export function toxicityFeeds(text: string): Feeds {
  return { features: { type: 'float32', data: toxicityInput(text), dims: [TOXICITY_INPUT_SIZE] } }
}

export type ToxicityAnswer = Record<(typeof TOXICITY_OUTPUTS)[number], number>

/**
 * The text classifier stacked on the toxicity head (stacked-text-classifier.ts, label "toxic"): trained on texts
 * written for it, it reads what the lexicons and patterns miss (insults and identity attacks without a rude word,
 * sarcasm, veiled threats, harassment, other languages). The other six heads are the graph's alone.
 */
export const TOXICITY_TEXT_CLASSIFIER = 'toxicity.texts.json'

export async function scoreToxicity(run: GraphRunner, text: string, textClassifier?: StackedTextClassifierFile): Promise<ToxicityAnswer> {
  const { scores } = await run(TOXICITY_GRAPH, toxicityFeeds(text))
  const answer = Object.fromEntries(TOXICITY_OUTPUTS.map((metric, i) => [metric, scores[i]])) as ToxicityAnswer
  if (textClassifier) answer.toxicity = stackedProbability(0, answer.toxicity, readText(textClassifier, text))
  return answer
}
