/**
 * Training texts for calibrating the toxicity heads. No toxicity corpus ships with any npm or
 * Debian package, so texts are generated: ordinary prose from the packages (fortunes, WordNet
 * examples, READMEs) as the non-toxic majority, harmless uses of violent words and of group
 * names, reported or quoted abuse, and toxic texts built from phrasings written here, each with
 * its seven Detoxify-style labels.
 * The evaluation set (tests/eval/toxicity.jsonl) is written separately and is not used.
 */
import { pick, seededRandom, shuffle } from './random'

/** toxicity, severe_toxicity, obscene, threat, insult, identity_attack, sexual_explicit */
export type ToxicityLabels = [number, number, number, number, number, number, number]
export type ToxicityRow = { text: string; labels: ToxicityLabels }

const INSULTS = ['idiot', 'moron', 'loser', 'clown', 'imbecile', 'failure', 'joke', 'creep', 'parasite', 'coward', 'liar', 'fool', 'disgrace', 'nobody', 'hypocrite']
const INSULT_ADJECTIVES = ['stupid', 'pathetic', 'worthless', 'useless', 'ugly', 'disgusting', 'brainless', 'clueless', 'incompetent', 'ignorant', 'dumb']
const PROFANE_INSULTS = ['asshole', 'bitch', 'bastard', 'dickhead', 'prick', 'douchebag', 'jackass', 'piece of shit', 'wanker']
const PROFANITY = ['fuck', 'fucking', 'shit', 'damn', 'crap', 'hell', 'bullshit', 'goddamn', 'fucked', 'shitty', 'f*cking', 'sh1t']
const TARGETS = ['you', 'your family', 'your kids', 'him', 'her', 'them', 'all of you']
const THREATS = [
  'I will kill {t}',
  "I'm going to hurt {t}",
  'we are going to find you and make you pay',
  'I know where you live',
  'watch your back, I am coming for you',
  "you're dead when I see you",
  'I swear I will break your legs',
  'someone should shoot {t}',
  'I will burn your house down with {t} inside',
  'I hope you die in a fire',
  'I hope your family gets cancer',
  "you won't see me coming",
  'I will make you suffer',
  'your days are numbered',
  'I am going to beat {t} until you stop breathing',
  'I will put a bullet in your head',
]
const FOREIGN_THREATS = ['te voy a matar', 'je vais te tuer', 'ich bringe dich um', 'ti ammazzo', 'vou te matar', 'я тебя убью']
const FOREIGN_INSULTS = ['eres un imbécil', 'espèce de connard', 'du bist ein Idiot', 'sei un coglione', 'você é um idiota', 'pinche pendejo', 'va te faire foutre', 'vaffanculo']
const GROUPS = ['women', 'immigrants', 'muslims', 'jews', 'gays', 'black people', 'mexicans', 'refugees', 'christians', 'asians', 'trans people', 'arabs', 'disabled people', 'those people']
const DEHUMANISING = ['are animals', 'are vermin', 'are a disease', 'are all criminals', 'are subhuman', 'should be deported', 'should not have rights', 'are ruining this country', 'are inferior', 'should all die', 'are parasites']
const IDENTITY_PHRASES = ['go back to your country', "you people don't belong here", 'I hate all {g}', 'typical lazy {g}', 'filthy {g} everywhere']
const SEXUAL = [
  'send me nudes',
  'I want to have sex with you',
  'show me your naked body',
  'you look so sexy, strip for me',
  'I want to lick your body',
  "let's hook up tonight, I'm horny",
  'suck my dick',
  'nice tits',
  'she gave him a blowjob in the car',
  'watching porn all night',
]
const BENIGN_VIOLENT = [
  'how do I kill the process that is using port 3000?',
  'this song absolutely kills',
  'shoot me an email when you are ready',
  'I was dying of laughter at that movie',
  'we crushed the exam today',
  'the new update killed my battery life',
  'she nailed the presentation',
  'that boss fight destroyed me',
  'the killer feature is offline mode',
  'I could murder a pizza right now',
  'the detective found the murder weapon in chapter three',
  'the army attacked at dawn in the history book',
  'how do I beat the final level?',
  'cut the onions into small pieces',
  'break a leg at the audition tonight!',
  'the bomb squad defused the device safely',
]
const BENIGN_GROUPS = [
  'Muslims around the world celebrate Eid at the end of Ramadan.',
  'Women in tech meetup is on Thursday.',
  'Many immigrants start small businesses in their first years.',
  'The Jewish community center hosts a book fair every spring.',
  'Black people have shaped American music in countless ways.',
  'Gay couples can now marry in many countries.',
  'Refugees need housing, language classes and jobs.',
  'My Mexican grandmother makes the best tamales.',
  'Trans people deserve respect and good healthcare.',
  'Christians celebrate Easter in spring.',
  'Asian American history month is in May.',
  'Disabled people need accessible buildings.',
]
const REPORTED = [
  'my coworker called me an {i} in front of everyone, how should I respond?',
  'he said "you are a {i}" and walked away',
  'someone posted "{p} you" under my photo, how do I report it?',
  'is it offensive to call someone a {i}?',
  'what does "{p}" mean in English?',
  'in the movie the villain says "I will kill you all"',
  'a customer yelled that I was {a} and I cried after work',
  'the lyrics say "{p} the police", is that song banned?',
  'my brother keeps calling me a {i}, what should I do?',
  'she told me that I was {a}, was that bullying?',
]

const VEILED_THREATS = [
  'it would be a real shame if something happened to your car',
  'I know where your kids go to school',
  "I've been watching you leave work every night",
  'accidents happen to people who ask too many questions',
  "you'll be sorry you ever posted that",
  'we know where you live, think about that',
  'be careful who you are messing with',
  'keep it up and see what happens to you',
  "I wouldn't want anything to happen to your family",
  'people who snitch tend to disappear',
  "nice car you've got there, be a pity if it caught fire",
  'remember what happened to the last guy who talked',
  'this is your last warning',
  "don't make me come over there",
  "we'll be seeing you soon, very soon",
]
const SEXUAL_REMARKS = [
  'hey sexy, come sit on my lap',
  'wear the short skirt tomorrow, for me',
  'bet you look good with nothing on',
  'send me a pic in your underwear',
  'you know what you need to do for me tonight if you want that raise',
  'your body is driving me crazy',
  'turn around for me, I like the view',
  "I'd love to rip your clothes off",
  'come over tonight and I will show you what I would do to you',
  'show a little more skin and I will buy you a drink',
  "bet you're wild in bed",
  'what are you wearing right now, babe?',
  'come back to my hotel and I will make it worth your while',
  'nice rack, sweetheart',
  "you'd look better without that shirt",
]
const GROUP_CLAIMS = [
  'are all thieves', 'are mentally ill', "can't be trusted with anything", 'only come here for benefits', 'belong in the kitchen',
  'have no morals', 'are lazy leeches', 'should not be allowed to vote', 'are a burden on society', 'breed like rats',
  'are always violent', 'need to be fixed', 'are incompatible with our values', 'are dirty liars',
]
const SARCASM = [
  'wow, what a genius idea, said no one ever',
  'nice going, einstein',
  'congrats on being the dumbest person here',
  "I'd explain it to you but you wouldn't get it anyway",
  "oh great, another brilliant take from the village idiot",
  'thanks, captain obvious',
  'it takes real talent to be this clueless',
]
const DEMEANING = [
  'you have half a brain at best',
  'go crawl back into your hole',
  'you are a waste of oxygen',
  'nobody wants you here',
  'everyone laughs at you behind your back',
  'you are lower than dirt',
  'what a spineless little worm',
  'your IQ must be lower than your shoe size',
]
/** Slurs of obscenity's English set: an attack when aimed, a word under discussion when quoted or asked about. */
const SLURS = ['retard', 'tranny', 'dyke', 'fag', 'spastic', 'kike', 'chink', 'nigger']
const SLUR_ATTACKS = ['shut up you {s}', 'what a {s}', 'typical {s} behaviour', 'go away, {s}', 'no {s}s allowed here', 'of course the {s} got it wrong']
const SLUR_TALK = ['is "{s}" a slur?', 'why is the word {s} offensive?', 'someone called my brother a {s}, how do I report it?', 'the history of the word "{s}" is ugly']
const DEATH_WISHES = [
  'do the world a favour and disappear forever',
  'everyone would be better off without you',
  'just end it already',
  'go jump off a bridge',
  'I hope you never wake up',
  'take all your pills and stop whining',
  'no one would care if you died tomorrow',
  'why are you still alive',
  'you should never have been born',
  'go unalive yourself',
]
const PRAISE = [
  'you are {k}', "you're so {k}", 'your work is {k}', 'thank you, you are {k}', 'you did a {k} job', 'I think you are {k}',
  'thanks so much for your help', 'I appreciate you', 'you made my day', 'proud of you!', 'your kids are {k}',
]
const KIND = ['wonderful', 'kind', 'amazing', 'great', 'lovely', 'brilliant', 'talented', 'the best', 'awesome', 'sweet', 'generous', 'helpful', 'smart', 'a star']
const CLINICAL = [
  'Condoms reduce the risk of HIV and other sexually transmitted infections.',
  'Talk to your doctor if you notice a lump in your breast.',
  'Vaginal thrush is a common yeast infection and is easy to treat.',
  'Premature ejaculation affects about one in three men at some point.',
  'The nurse explained how to check the penis and testicles for changes.',
  'Painful sex after childbirth is common; pelvic physiotherapy can help.',
  'Puberty brings changes like pubic hair and breast development.',
  'An STI screening includes a urine test and a blood test.',
  'Anal fissures cause pain during bowel movements.',
  'Teach children the correct names for their genitals.',
  'Low libido can be a side effect of antidepressants.',
  'The patient was diagnosed with genital herpes and started antiviral treatment.',
]
const MODERATION_TALK = [
  'how can we stop people from posting slurs in the comments?',
  'our rules forbid threats, even ones written as jokes',
  'we removed the post because it attacked a religious group',
  'what counts as hate speech on this platform?',
  'a moderator should warn users who insult others',
  'please report messages that contain sexual harassment',
  'the filter missed a threat written with symbols instead of letters',
  'we ban accounts that post hate speech',
  'is calling someone a clown considered harassment?',
  'the moderators hid three replies that broke the community guidelines',
  'flag any comment that threatens another user',
]

/**
 * Insults and group attacks without insult words, composed from strongly negative adjectives (VADER's lexicon
 * met with WordNet's adjectives, passed in by the trainer), and the same adjectives where nobody is attacked:
 * sympathy, complaints about things, groups as victims, people about themselves.
 */
const INTENSIFIERS = ['', 'so ', 'really ', 'truly ', 'incredibly ', 'genuinely ', 'utterly ', 'just ', 'beyond ', 'the most ']
const THEIR_THINGS = ['face', 'voice', 'writing', 'personality', 'attitude', 'opinion', 'mind', 'work', 'code', 'music', 'whole family', 'breath', 'cooking', 'taste', 'logic', 'existence']
const AIMED = [
  'you are {i}{a}', "you're {i}{a}", 'your {x} is {i}{a}', 'how can anyone be this {a}', '{a} people like you should stay quiet',
  'nobody is as {a} as you', 'what a {a} excuse for a person you are', 'you {a} little {n}', 'everything about you is {a}',
  'you look {i}{a} in every photo', 'god, you are {a}', 'you and your {a} {x}', 'stop being so {a}, you {n}',
]
const GROUP_AIMED = ['{g} are {i}{a}', 'all {g} are {a}', '{g} make everything {a}', 'I find {g} {i}{a}', '{g} are {a} and always will be', 'the {a} {g} are everywhere now']
const NOT_AIMED = [
  "I'm so sorry you had such a {a} day", 'that sounds {a}, are you okay?', 'sorry to hear your week was {a}', 'I hope you feel better after that {a} news',
  'this {t} is {i}{a}', 'the {t} was {a} today', 'the {a} storm flooded the whole valley', 'what a {a} end to the match',
  '{g} often face {a} treatment at work', 'reports of {a} abuse against {g} are rising', 'many {g} were victims of {a} attacks last year',
  'I feel {i}{a} today', 'I was {a} in that meeting, sorry everyone', 'my own handwriting is {a}', 'the villain in the novel is {a} and cruel',
]
const THINGS = ['weather', 'traffic', 'movie', 'update', 'queue', 'game', 'wifi', 'food', 'printer', 'train delay', 'news', 'plot twist']

const capitalise = (s: string) => s[0].toUpperCase() + s.slice(1)
const L = (tox: number, severe = 0, obscene = 0, threat = 0, insult = 0, identity = 0, sexual = 0): ToxicityLabels => [tox, severe, obscene, threat, insult, identity, sexual]

function decorate(text: string, random: () => number): string {
  const r = random()
  if (r < 0.15) return text.toUpperCase() + '!!!'
  if (r < 0.3) return capitalise(text) + pick(['.', '!', '!!', ' 🖕', ' 🤬', ' 🔪', '?'], random)
  if (r < 0.4) return `${pick(['Hey', 'Listen', 'Honestly', 'Seriously', 'Look', 'Read this'], random)}, ${text}`
  return text
}

function fill(template: string, random: () => number): string {
  return template
    .replace('{t}', pick(TARGETS, random))
    .replace('{g}', pick(GROUPS, random))
    .replace('{i}', pick(INSULTS, random))
    .replace('{a}', pick(INSULT_ADJECTIVES, random))
    .replace('{p}', pick(PROFANITY, random))
}

/** `prose` is ordinary text, most of the set as most of what people write. */
export function toxicityTrainingSet(prose: string[], count: number, seed: number, negativeAdjectives: string[] = []): ToxicityRow[] {
  const random = seededRandom(seed)
  const rows: ToxicityRow[] = []
  while (rows.length < count) {
    const r = random()
    if (negativeAdjectives.length && random() < 0.12) {
      const compose = (template: string) =>
        template
          .replace('{i}', pick(INTENSIFIERS, random))
          .replace('{a}', pick(negativeAdjectives, random))
          .replace('{x}', pick(THEIR_THINGS, random))
          .replace('{n}', pick(INSULTS, random))
          .replace('{g}', pick(GROUPS, random))
          .replace('{t}', pick(THINGS, random))
      const k = random()
      if (k < 0.08) rows.push({ text: decorate(pick(SLUR_ATTACKS, random).replace('{s}', pick(SLURS, random)), random), labels: L(1, 0, 0, 0, 1, 1) })
      else if (k < 0.12) rows.push({ text: capitalise(pick(SLUR_TALK, random).replace('{s}', pick(SLURS, random))), labels: L(0) })
      else if (k < 0.35) rows.push({ text: decorate(compose(pick(AIMED, random)), random), labels: L(1, 0, 0, 0, 1) })
      else if (k < 0.5) rows.push({ text: decorate(compose(pick(GROUP_AIMED, random)), random), labels: L(1, 0, 0, 0, 1, 1) })
      else rows.push({ text: capitalise(compose(pick(NOT_AIMED, random))) + '.', labels: L(0) })
    } else if (r < 0.4) {
      rows.push({ text: pick(prose, random), labels: L(0) })
    } else if (r < 0.44) {
      // Kind words, clinical language and talk about moderation: hard negatives for "you", body words and abuse words.
      const k = random()
      const text = k < 0.5 ? pick(PRAISE, random).replace('{k}', pick(KIND, random)) : k < 0.8 ? pick(CLINICAL, random) : pick(MODERATION_TALK, random)
      rows.push({ text: k < 0.5 ? decorate(text, random).replace(/[🖕🤬🔪]/gu, '') : text, labels: L(0) })
    } else if (r < 0.46) {
      rows.push({ text: decorate(pick(BENIGN_VIOLENT, random), random), labels: L(0) })
    } else if (r < 0.5) {
      rows.push({ text: pick(BENIGN_GROUPS, random), labels: L(0) })
    } else if (r < 0.55) {
      rows.push({ text: fill(pick(REPORTED, random), random), labels: L(0) })
    } else if (r < 0.62) {
      const insult = random() < 0.5 ? `you are ${pick(['a', 'such a', 'a complete', 'an absolute'], random)} ${pick(INSULTS, random)}` : `you ${pick(INSULT_ADJECTIVES, random)} ${pick(INSULTS, random)}`
      rows.push({ text: decorate(insult, random), labels: L(1, 0, 0, 0, 1) })
    } else if (r < 0.67) {
      const text = random() < 0.5 ? `you ${pick(['are a', 'fucking', 'stupid', 'little'], random)} ${pick(PROFANE_INSULTS, random)}` : `${pick(['fuck you', 'screw you', 'shut up', 'fuck off'], random)}, ${pick(PROFANE_INSULTS, random)}`
      rows.push({ text: decorate(text, random), labels: L(1, random() < 0.4 ? 1 : 0, 1, 0, 1) })
    } else if (r < 0.72) {
      // Swearing at a situation, not at a person: obscene, mildly toxic.
      const sentence = pick(prose, random).split(' ')
      sentence.splice(Math.floor(random() * sentence.length), 0, pick(PROFANITY, random))
      rows.push({ text: sentence.join(' '), labels: L(1, 0, 1) })
    } else if (r < 0.8) {
      const threat = fill(pick(THREATS, random), random)
      const severe = /kill|dead|die|bullet|burn|cancer/.test(threat) ? 1 : 0
      rows.push({ text: decorate(threat, random), labels: L(1, severe, 0, 1) })
    } else if (r < 0.82) {
      rows.push({ text: decorate(pick(FOREIGN_THREATS, random), random), labels: L(1, 1, 0, 1) })
    } else if (r < 0.85) {
      rows.push({ text: decorate(pick(FOREIGN_INSULTS, random), random), labels: L(1, 0, 1, 0, 1) })
    } else if (r < 0.87) {
      rows.push({ text: decorate(pick(['kill yourself', 'go die', 'kys loser', 'nobody would miss you, end it'], random), random), labels: L(1, 1, 0, 1, 1) })
    } else if (r < 0.93) {
      const text = random() < 0.6 ? `${pick(GROUPS, random)} ${pick(DEHUMANISING, random)}` : fill(pick(IDENTITY_PHRASES, random), random)
      rows.push({ text: decorate(text, random), labels: L(1, random() < 0.3 ? 1 : 0, 0, /die/.test(text) ? 1 : 0, 1, 1) })
    } else if (r < 0.955) {
      const k = random()
      if (k < 0.2) rows.push({ text: decorate(pick(VEILED_THREATS, random), random), labels: L(1, 0, 0, 1) })
      else if (k < 0.4) rows.push({ text: decorate(`${pick(GROUPS, random)} ${pick(GROUP_CLAIMS, random)}`, random), labels: L(1, 0, 0, 0, 1, 1) })
      else if (k < 0.55) rows.push({ text: decorate(pick(SARCASM, random), random), labels: L(1, 0, 0, 0, 1) })
      else if (k < 0.7) rows.push({ text: decorate(pick(DEMEANING, random), random), labels: L(1, 0, 0, 0, 1) })
      else if (k < 0.8) rows.push({ text: decorate(pick(DEATH_WISHES, random), random), labels: L(1, 1, 0, 1, 1) })
      else rows.push({ text: decorate(pick(SEXUAL_REMARKS, random), random), labels: L(1, 0, 0, 0, 0, 0, 1) })
    } else {
      const text = pick(SEXUAL, random)
      rows.push({ text: decorate(text, random), labels: L(1, 0, /dick|tits|porn|blowjob/.test(text) ? 1 : 0, 0, 0, 0, 1) })
    }
  }
  return shuffle(rows, random)
}
