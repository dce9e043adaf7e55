/**
 * Composed training texts for the toxicity families that lexicons miss (issue 18, fourth round): identity attacks
 * without slurs, threats without profanity, veiled threats, sexual harassment and innuendo, sarcastic put-downs,
 * incitement to self-harm; and their hard negatives: the same texts quoted or reported, counter-speech, clinical and
 * sexual-health language, criticism of work rather than people, kind conditionals and genuine praise.
 * Every phrase list here was written from the published definitions (Jigsaw / Civil Comments labels, HateCheck's
 * functional tests) and general knowledge; none is taken from an evaluation set, and each text is put together from
 * several independently drawn parts so that no single template dominates what the n-gram weights learn.
 */
import { everydaySentence } from './everyday-text'
import { pick, seededRandom } from './random'
import type { ToxicityLabels, ToxicityRow } from './toxicity-data'

const L = (tox: number, severe = 0, obscene = 0, threat = 0, insult = 0, identity = 0, sexual = 0): ToxicityLabels => [tox, severe, obscene, threat, insult, identity, sexual]
type Parts = Record<string, readonly string[]>

/** Fills every {slot} of a template from `parts`, each slot drawn on its own. */
function compose(template: string, parts: Parts, random: () => number): string {
  return template.replace(/\{(\w+)\}/g, (_, slot: string) => compose(pick(parts[slot], random), parts, random))
}

const GROUP_PLURALS = [
  'women', 'men', 'immigrants', 'migrants', 'refugees', 'muslims', 'jews', 'christians', 'hindus', 'sikhs', 'atheists', 'gay people',
  'lesbians', 'trans people', 'bisexual people', 'black people', 'white people', 'asians', 'mexicans', 'latinos', 'arabs', 'africans',
  'indians', 'pakistanis', 'poles', 'romanians', 'roma', 'chinese people', 'disabled people', 'autistic people', 'old people', 'fat people',
  'poor people', 'single mothers', 'foreigners', 'catholics', 'nigerians', 'syrians', 'somalis', 'ukrainians', 'russians', 'deaf people',
]
const HOSTILE_GROUP: Parts = {
  g: GROUP_PLURALS,
  G: ['people like that', 'that lot', 'their kind', 'those types', 'folks like them', 'every last one of them'],
  quality: ['intelligent', 'honest', 'capable', 'civilised', 'trustworthy', 'rational', 'hard-working', 'clean', 'loyal', 'competent'],
  role: ['teachers', 'doctors', 'pilots', 'judges', 'managers', 'police officers', 'in charge of anything', 'near children', 'in government', 'engineers'],
  right: ['the vote', 'equal pay', 'a say in anything', 'to marry', 'citizenship', 'the same rights as us', 'to raise children', 'to own property'],
  place: ['our neighbourhood', 'this country', 'our schools', 'the office', 'the city', 'our culture', 'this town', 'the whole street'],
  habit: ['lie', 'steal', 'complain', 'cause trouble', 'play the victim', 'breed like that', 'take our jobs', 'ruin everything they touch'],
  what: ['a drain on society', 'a danger to everyone', 'a lower form of life', 'genetically inferior', 'born criminals', 'a cancer on this country', 'not fully human', 'an infestation'],
  verb: ['hire', 'rent to', 'trust', 'sit next to', 'vote for', 'work with', 'let my kids play with', 'serve'],
  plague: ['plague', 'disease', 'cancer', 'infection', 'rot', 'stain', 'parasite', 'virus', 'curse', 'blight'],
  institution: ['the central bank', 'the newspapers', 'the government', 'hollywood', 'the courts', 'the schools', 'the universities', 'every big company', 'the weather forecasts', 'the elections'],
  fixed: ['treated', 'cured', 'kept away from children', 'locked up', 'watched', 'treated, not accepted', 'put in camps', 're-educated'],
  burden: ['a burden', 'dead weight', 'a weight around our necks', 'leeches', 'freeloaders', 'a cost', 'useless mouths to feed'],
  verb2: ['vote', 'run things', 'teach our kids', 'move in', 'have their way', 'build their temples'],
  member: ['woman', 'muslim', 'jew', 'foreigner', 'gay guy', 'black guy', 'immigrant', 'boomer', 'trans person', 'feminist'],
  outcome: ['be targeted by online fraud', 'live in cities', 'vote early', 'own a small business', 'report workplace discrimination', 'use public transport', 'volunteer'],
  share: ['a third', 'twelve percent', 'half', 'a small share', 'a growing share'],
  field: ['nursing', 'software engineering', 'the armed forces', 'farming', 'local politics', 'teaching', 'the city council'],
  treated: ['turned down', 'paid less', 'asked illegal questions', 'overlooked', 'underestimated'],
  access: ['find housing', 'open bank accounts', 'learn the language', 'start businesses', 'get medical care'],
  topic: ['their first year in the country', 'their working conditions', 'their experience of the pandemic', 'how they use social media'],
}
const IDENTITY_ATTACKS = [
  '{g} are just not {quality} enough to be {role}',
  '{g} are {what}',
  'honestly {g} are {what}, and everyone knows it',
  '{g} should never be {role}',
  'I would never {verb} {g}',
  'no company should {verb} {g}',
  'keep {g} out of {place}',
  '{g} do not deserve {right}',
  'why do {g} always {habit}?',
  'it is a fact that {g} are less {quality} than the rest of us',
  '{g} are taking over {place} and someone has to stop them',
  '{g} only know how to {habit}',
  'the problem with {place} is all the {g}',
  '{G} are {what}',
  'you can tell {G} are not {quality}',
  'every time {g} move into {place}, it goes downhill',
  'we need fewer {g} in {place}',
  'a country full of {g} is a country in decline',
  '{g} are born to {habit}',
  '{g} should go back where they came from',
  'I do not consider {g} real citizens',
  'being around {g} makes me feel dirty',
  // Twelfth round: HateCheck's dehumanisation by metaphor, conspiracy claims, pathologising, and pronoun reference
  // ("them", "they") to a group named earlier or not at all.
  '{g} are a {plague} in {place}',
  '{g} spread like a {plague} wherever they settle',
  '{g} secretly pull the strings at {institution}',
  '{g} run {institution} and everyone is too scared to say it',
  'open your eyes, {g} are behind {institution}',
  '{g} are sick in the head and ought to be {fixed}',
  'there is something wrong with {g}, they need to be {fixed}',
  '{g} are nothing but {burden} for the rest of us',
  'ship them out, {place} was better before {g}',
  'put every last one of {G} on a plane out of here',
  'you can always smell when {g} have been in the room',
  '{g} lie by nature, it runs in their blood',
  'do not believe a word {g} say, they are all the same',
  'let {g} {verb2} and watch {place} fall apart',
  'of course a {member} would say that, they are all {what}',
]
const COUNTER_SPEECH = [
  'saying {g} are {what} is hateful and wrong',
  'it is a myth that {g} {habit}',
  'studies show {g} are just as {quality} as anyone else',
  '{g} face discrimination when they apply to be {role}',
  'no one should refuse to {verb} {g}',
  '{g} deserve {right} like everyone else',
  'a post claimed {g} are {what}, and the moderators removed it',
  'our project welcomes {g} as {role}',
  'the report looks at why so few {g} become {role}',
  'I grew up with {g} in {place} and they were great neighbours',
  'many {g} moved to {place} in the nineties',
  'the museum has an exhibition on the history of {g} in {place}',
  // Twelfth round: neutral statements of fact about a group (HateCheck's non-hateful group identity statements), so
  // that naming a group next to "more likely", "are often" or a statistic does not read as a generalisation.
  '{g} are more likely to {outcome}, the survey found',
  'according to the census, {g} make up {share} of {field}',
  'a growing number of {g} work in {field}',
  '{g} are often {treated} when they apply for jobs',
  'the new programme helps {g} {access}',
  'researchers interviewed {g} about {topic}',
  '{g} and their families gathered in {place} for the festival',
]

const THREAT_PARTS: Parts = {
  me: ['I', 'we', 'my brothers and I', 'me and my friends', 'my guys'],
  will: ["will", "'m going to", "are going to", "'ll", 'swear we will', 'promise I will'],
  do: [
    'make sure you never walk again', 'break every bone in your body', 'set your car on fire', 'come to your house and drag you out',
    'teach you a lesson you will never forget', 'put you in a wheelchair', 'end you', 'make your life a living hell', 'wreck your face',
    'smash your windows one by one', 'knock your teeth out', 'leave you bleeding in the street', 'make you disappear', 'wipe you off the map',
    'visit your family', 'take care of you the old-fashioned way', 'make you beg for mercy', 'burn everything you own',
  ],
  when: ['tonight', 'after school', 'when you least expect it', 'this weekend', 'the next time I see you', 'soon', 'before the week is out', ''],
  you: ['you', 'your whole family', 'you and your friends', 'that mouthy kid of yours'],
}
const THREATS = [
  '{me} {will} {do} {when}',
  'you better hide, because {me} {will} {do}',
  'keep talking and {me} {will} {do}',
  'one more word and {me} {will} {do} {when}',
  'I am coming for {you} {when}',
  'you have until friday, then {me} {will} {do}',
]
const VEILED_PARTS: Parts = {
  thing: ['your car', 'your house', 'your dog', 'your kids', 'your shop', 'your mother', 'that pretty face of yours', 'your little sister'],
  bad: ['something happened to', 'anything went wrong with', 'someone hurt', 'a fire started at', 'an accident happened to'],
  know: ['I have your address now', 'I know which bus you take', 'I found out where your parents live', 'I know what time your daughter gets out of school', 'I have seen your house'],
  act: ['talk to the police', 'ask questions', 'testify', 'leave the group', 'open their mouth', 'cross us'],
  fate: ["don't last long around here", 'tend to have accidents', 'end up in the river', 'go missing', 'regret it for the rest of their short lives'],
  advice: ['think about your family', 'stay inside at night', 'check under your car', 'watch who you talk to', 'keep your head down', 'get good insurance'],
}
const VEILED_THREATS = [
  "it'd be a pity if {bad} {thing}",
  'shame if {bad} {thing}, right?',
  '{know}. just so you know',
  '{know}, think about that',
  'people who {act} {fate}',
  'if I were you I would {advice}',
  'you should {advice}, for your own good',
  'drop the complaint. {know}',
  'remember, {know}',
  'be a good girl and drop it, {know}',
  'nobody would find you out there',
  'pretty quiet street you live on, nobody would hear a thing',
]
const KIND_CONDITIONALS = [
  "it'd be a pity if the rain ruined the picnic",
  'shame if the concert got cancelled, right?',
  'if I were you I would {careful}',
  'you should {careful}, just in case',
  'people who skip warm-ups tend to get injured',
  'I have your address now, the invitation is in the post',
  'I know which bus you take, want to ride together tomorrow?',
  'I found out where your parents live, so we can send them flowers',
  'remember, the office is closed on monday',
  'nobody would find the cabin without directions, so I will send a map',
]
const CAREFUL = ['back up your files first', 'check the tyres before the trip', 'get travel insurance', 'keep your receipts', 'stay inside during the storm', 'lock your bike at the station']

const HARASSMENT_PARTS: Parts = {
  pet: ['babe', 'sweetheart', 'honey', 'gorgeous', 'sexy', 'darling', 'sugar', 'princess', 'baby girl', 'hot stuff'],
  remark: [
    'you should smile more, it makes me think about things', 'wear something tighter tomorrow', "I can't stop thinking about your body",
    "come sit closer, I don't bite... much", 'you would get that promotion faster if you were nicer to me after hours',
    'I bet you taste as good as you look', 'let me give you a private massage in my office', 'those jeans fit you a little too well',
    'want to come see my bedroom?', 'send me something spicy tonight', 'lean over the desk again, I liked that',
    'I could help with your grades if you stay after class', 'how about you show me what is under that blouse',
    'you look like you need a real man tonight', 'I was picturing you in the shower all morning', 'bend down and pick that up for me',
    'those lips were made for something else', 'your legs look amazing from where I sit', 'skip the meeting and come to my car',
    'I know you want it, stop playing hard to get', 'did it hurt when you fell from heaven into my bed?',
  ],
}
const HARASSMENT = ['hey {pet}, {remark}', '{remark}, {pet}', '{remark} ;)', '{remark} 😏', 'mmm {pet}, {remark}', '{remark}']
// Twelfth round: the kinds of workplace and street harassment the EEOC's guidance and harassment-survey questionnaires
// list (quid pro quo, comments on the body, leering, rumours that someone traded sex for advancement), composed.
const HARASSMENT_MORE_PARTS: Parts = {
  pet: HARASSMENT_PARTS.pet,
  gain: ['the job', 'that raise', 'the promotion', 'the lead role', 'good grades', 'the contract', 'your position', 'the internship'],
  traded: ['went to bed with the boss', 'flirted your way in', 'spent a night with the director', 'gave the professor a private show', 'slept your way up', 'did favours for the owner'],
  bodypart: ['legs', 'chest', 'hips', 'lips', 'curves', 'backside', 'figure', 'mouth'],
  leer: ['I could stare at you all day', 'what a sight', 'I like watching you walk away', 'you make it hard to concentrate', 'I keep imagining what is underneath', 'I want to see more of that'],
  order: ['turn around slowly', 'lean forward', 'sit on the desk', 'walk past me again', 'come closer', 'do a little twirl'],
  deal: ['stay late', 'come to my hotel room', 'have a drink alone with me', 'be nice to me after work', 'keep me company this weekend', 'send me a private photo'],
  reward: ['the job is yours', 'I will sign off on your review', 'you will pass the course', 'I will make it worth your while', 'that raise could happen', 'I can forget about your mistake'],
}
const HARASSMENT_MORE = [
  'you only got {gain} because you {traded}',
  'everyone knows you {traded} to get {gain}',
  'nice {bodypart}, {pet}, {leer}',
  'with {bodypart} like that, {leer}',
  '{order}, {pet}, {leer}',
  '{order} again, {leer}',
  '{deal} and {reward}',
  'if you {deal}, {reward}',
  '{pet}, {deal}, and {reward} ;)',
  'dressed like that you are asking for the attention, so do not act offended',
  'stop dressing like that if you do not want men to touch you',
  'those {bodypart} of yours should be illegal, {pet}',
]
const CLINICAL_PARTS: Parts = {
  condition: [
    'erectile dysfunction', 'vaginal dryness', 'a yeast infection', 'chlamydia', 'gonorrhoea', 'HPV', 'genital warts', 'syphilis', 'a testicular lump',
    'breast tenderness', 'pain during intercourse', 'low sperm count', 'an irregular period', 'a prostate problem', 'endometriosis', 'vulvodynia',
  ],
  advice: [
    'is common and usually treatable', 'should be checked by a doctor', 'can be diagnosed with a simple swab', 'often has no symptoms at first',
    'is discussed openly at the sexual health clinic', 'may be a side effect of medication', 'is covered in the sex education curriculum',
    'can affect fertility if left untreated', 'is nothing to be embarrassed about', 'responds well to pelvic floor exercises',
  ],
  body: ['penis', 'vagina', 'vulva', 'breasts', 'testicles', 'anus', 'nipples', 'cervix', 'clitoris', 'scrotum'],
}
const CLINICAL = [
  '{condition} {advice}.',
  'My gynaecologist said {condition} {advice}.',
  'Q: is {condition} serious? A: it {advice}.',
  'Check your {body} monthly for changes and see a doctor about anything new.',
  'The lesson covers the anatomy of the {body} and consent.',
  'After the biopsy, the skin around the {body} may feel sore for a week.',
  'Using condoms and getting tested protects you and your partners from {condition}.',
  'Teenagers asked the nurse about masturbation, orgasms and {condition}.',
  'The sex therapist explained how anxiety causes {condition}.',
]

const SARCASM_PARTS: Parts = {
  open: ['wow', 'oh wow', 'amazing', 'bravo', 'incredible', 'well well', 'oh look', 'stunning work', 'gosh'],
  feat: ['tie your own shoes', 'read a whole sentence', 'find the on switch', 'count to ten', 'spell your own name', 'string two thoughts together', 'open a door'],
  fail: ['get everything wrong', 'miss the point', 'make things worse', 'embarrass yourself', 'say nothing useful'],
  clever: ['brilliant', 'genius', 'fantastic', 'great', 'wonderful'],
  failed: ['sank the company', 'got us all fined', 'broke production for a week', 'lost the client', 'flooded the kitchen'],
  nonhelp: ['doing absolutely nothing', 'watching while we did the work', 'your valuable silence', 'showing up late again', 'breaking it twice'],
  lowpoint: ['a new personal worst', 'failing the easiest test there is', 'being wrong three times in one sentence', 'ruining yet another evening'],
  selfimportance: ['everyone here was waiting for your opinion', 'the world revolves around you', 'your hot take is what we all needed', 'you obviously know better than the experts'],
  showup: ['grace us with your presence', 'join the rest of us', 'wake up', 'read the email'],
}
const SARCASM = [
  '{open}, you managed to {feat} all by yourself',
  "{open}, I'm impressed you can even {feat}",
  'did you come up with that all on your own? {open}',
  'must be nice to never have a single thought',
  'bless your heart, you really tried to think',
  'your talent for managing to {fail} never stops amazing me',
  'keep talking, maybe one day you will say something smart',
  "I'd agree with you, but then we'd both be wrong",
  '{open}, the expert has arrived to {fail} again',
  'a round of applause for the only person here who can {fail} this consistently',
  'you are proof that anyone can get a job these days',
  'I admire how confidently you {fail}',
  'sure, because you are clearly the genius in this room',
  'oh please, enlighten us again with your wisdom, we all need a laugh',
  '{clever} idea, almost as clever as the last one that {failed}',
  'thanks so much for {nonhelp}, what would we ever do without you',
  'congratulations on {lowpoint}, truly a role model',
  'oh sure, because {selfimportance}',
  'how kind of you to finally {showup}, your majesty',
  'it is impressive how you can talk for an hour and {fail}',
]
// Twelfth round: mock praise and mock surprise as a frame around contempt, composed from parts (the frame alone is
// also genuine praise: GENUINE_PRAISE below keeps the same openers with real achievements).
const SARCASM_MORE_PARTS: Parts = {
  frame: ['oh look', 'what a surprise', 'shocking', 'well done', 'impressive', 'congratulations', 'bravo', 'amazing', 'thanks a lot', 'sure', 'oh great', 'lovely', 'how clever'],
  whoever: ['the mastermind', 'our resident clown', 'the smartest person alive', 'mister know-it-all', 'the least qualified person here', 'professor obvious', 'the office idiot'],
  spoke: ['is explaining things again', 'has another big plan', 'graces us with advice', 'wants to lead the project now', 'has a theory'],
  bow: ['alert the media', 'somebody write that down', 'stop the presses', 'hold the applause', 'we are all in awe'],
  neg: ['clueless', 'pathetic', 'incompetent', 'a joke', 'an embarrassment', 'hopeless', 'a total liability', 'dead weight'],
  record: ['once more', 'without even trying', 'before lunch', 'every single day', 'yet again', 'like clockwork'],
  little: ['that you think you are smart', 'watching you pretend to know things', 'that you still think anyone listens', 'seeing you try so hard and get nowhere'],
  cute: ['cute', 'sweet', 'funny', 'precious', 'charming', 'touching'],
  task: ['a two-minute job', 'an easy meeting', 'a birthday card', 'a password reset', 'a sandwich', 'a coffee order'],
}
const SARCASM_MORE = [
  '{frame}, {whoever} {spoke}, {bow}',
  '{frame}, you managed to be {neg} {record}',
  '{frame}, you turned {task} into a catastrophe {record}',
  "it's {cute}, {little}",
  'go on, it is {cute}, {little}',
  '{frame}, {whoever} {spoke}',
  'appreciate the effort, shame you are {neg}',
  '{frame}, truly {neg} {record}',
  '{frame}, another masterpiece from {whoever}',
]
const PRAISE_PARTS: Parts = {
  open: ['wow', 'oh wow', 'amazing', 'bravo', 'incredible', 'well done', 'congratulations'],
  feat: ['finish the marathon', 'fix the build', 'learn three languages', 'ship the release on time', 'pass the bar exam', 'rebuild that engine'],
  good: ['a wonderful person', 'such a kind soul', 'a great friend', 'an amazing teacher', 'a brilliant colleague', 'a lovely neighbour', 'the best', 'so generous', 'a natural at this', 'a real inspiration'],
  thanks: ['thank you for everything', 'thanks for the help', 'I mean it', 'we are lucky to have you', 'never change'],
}
const GENUINE_PRAISE = [
  '{open}, you managed to {feat} all by yourself!',
  "{open}, I'm impressed you could {feat} so quickly",
  'did you really {feat}? {open}, that is great news',
  'your talent for explaining hard things never stops amazing me',
  'keep going, you are getting better every week',
  'I admire how calmly you handled that customer',
  // Twelfth round: the counterpart of the "you are {neg}" put-downs above, so "you are" itself carries no attack.
  'you are {good}, {thanks}',
  '{thanks}, you are {good}',
  'honestly, you are {good}',
  '{open}, you are {good}',
]
// Incitement to self-harm, composed (eleventh round): an urging frame, an act, and often a reason
// given to the target; its hard negatives talk about the same acts to help, to ask or to tell a story.
const SELF_HARM_PARTS: Parts = {
  act: [
    'kill yourself', 'end your life', 'end it all', 'off yourself', 'jump off a roof', 'jump in front of a train', 'hang yourself',
    'slit your wrists', 'take a whole bottle of pills', 'stop breathing', 'overdose', 'disappear for good', 'never wake up again',
    'unalive yourself', 'throw yourself off a cliff', 'swallow some poison', 'drown yourself', 'put a rope around your neck',
  ],
  done: ['killed yourself', 'ended your life', 'were dead', 'were gone for good', 'stopped existing', 'jumped off a roof', 'overdosed', 'stopped breathing'],
  why: [
    'nobody would miss you', 'no one would care', 'nobody wants you around', 'you are a waste of oxygen', 'everyone hates you anyway',
    'your family would be relieved', 'you are a burden on everyone', 'no one would come to your funeral', 'you are worthless',
  ],
  favour: ['do everyone a favour', 'do the world a favour', 'save us all the bother', 'spare us', 'be useful for once', 'make everyone happy'],
}
const SELF_HARM = [
  '{favour} and {act}', 'why not just {act}? {why}', 'just {act} already', 'go {act}', 'you should {act}, {why}', 'seriously, {act}',
  '{why}, so {act}', 'everyone would be happier if you {done}', 'it would be better for everyone if you {done}', '{why}. {act}',
  'have you considered that you could {act}?', 'please {act}', 'the best thing you could do is {act}', 'I hope you {act} tonight',
  'kys', 'kys, {why}', '{why}, {favour}',
]
const SUPPORT_PARTS: Parts = {
  thought: ['wanting to end your life', 'thinking about killing yourself', 'feeling like you want to disappear', 'thinking about self-harm', 'having thoughts of suicide'],
  thinking: ['wants to end their life', 'is thinking about killing themselves', 'talks about disappearing for good', 'has been hurting themselves', 'mentioned suicide'],
  who: ['my brother', 'a friend', 'my daughter', 'a coworker', 'my partner', 'a student of mine', 'my neighbour'],
  help: ['call a crisis line', 'talk to someone you trust', 'reach out to a doctor', 'text the support line', 'go to the emergency room', 'tell a friend tonight'],
  act: SELF_HARM_PARTS.act,
}
const SUPPORT = [
  'if you are {thought}, please {help}', '{who} {thinking}; how can I help?', 'what should I do if {who} {thinking}?',
  'warning signs that someone is {thought}', 'if someone tells you they want to {act}, stay with them and {help}',
  'in the film the main character wants to {act}, and the ending is hard to watch', 'the documentary follows people who tried to {act} and survived',
  'the helpline is open all night if you need to talk', 'losing a friend to suicide is devastating; here is how to support the family',
  'nobody should go through grief alone, reach out to us',
]
const CRITICISM_PARTS: Parts = {
  work: ['proposal', 'estimate', 'patch', 'essay', 'plan', 'query', 'design', 'budget', 'pull request', 'slide deck', 'theory', 'recipe'],
  flaw: [
    'underestimates the cost', 'misses two edge cases', 'breaks the build on Windows', 'is off by a factor of two', 'ignores the winter traffic',
    'needs sources for the second claim', 'would fail an audit', 'is too long to read in one sitting', 'repeats the same mistake as last year',
  ],
}
// Twelfth round: disagreement with a claim and blunt feedback on work, addressed to "you" (the n-gram weights had learnt
// "your" + "wrong"/"disagree" as an attack): argument, correction and review language from debate and code review.
const DISAGREEMENT_PARTS: Parts = {
  disagree: ["I don't agree with", 'I disagree with', 'I have to push back on', "I'm not convinced by", 'I strongly object to', 'I see it differently from'],
  claim: ['your conclusion', 'your argument', 'your reading of the data', 'your summary', 'your estimate', 'your proposal', 'your interpretation', 'your last point'],
  reason: [
    'only forty people answered the survey', 'the survey excluded rural areas', 'the second study found the opposite', 'it leaves out the maintenance costs',
    'the totals in table two are off', 'the baseline is from a different year', 'correlation is not causation here', 'three months is not enough time',
  ],
  wrongabout: ['the launch date', 'the capital of Canada', 'who wrote that book', 'the meeting time', 'the tax deadline', 'the score', 'the route'],
  correction: ['it slipped to June', 'it is Ottawa', 'it was published in 1954', 'it starts at ten', 'it is in April this year', 'it ended two all', 'the bridge is closed'],
  broken: ['your code', 'your patch', 'your query', 'your script', 'your migration', 'your test'],
  fails: ['crashes when the list is empty', 'breaks on Windows', 'times out on large files', 'leaks memory', 'returns the wrong total', 'ignores the time zone'],
  fix: ['can you add a test?', 'please fix it before the release', 'let us pair on it tomorrow', 'I left comments inline'],
}
const DISAGREEMENT = [
  '{disagree} {claim}; {reason}',
  '{disagree} {claim} because {reason}',
  'with respect, {claim} is wrong: {reason}',
  "I think you're wrong about {wrongabout}, {correction}",
  "you're mistaken about {wrongabout}; {correction}",
  "that is not right, I checked: {correction}",
  '{broken} {fails}; {fix}',
  'sorry, but {broken} {fails}',
  'your report was far too long and the charts were unreadable',
  'the critic was unfair to the director and skipped the whole last act',
]
const CRITICISM = [
  'your {work} {flaw}',
  'honestly, your {work} {flaw}, so I cannot approve it yet',
  'I think the {work} {flaw}; can we talk tomorrow?',
  'sorry, but this {work} {flaw}',
  'the {work} you sent {flaw}, please revise it',
  'that was a terrible game by our defence',
  'the service at that restaurant was awful',
  'this update is a disaster for battery life',
]
const REPORT_FRAMES = [
  'A user wrote "{x}" on my post. How do I report it?',
  'My ex texted me "{x}". Should I go to the police?',
  'Someone left a comment saying "{x}" and the filter missed it.',
  'In chapter three the bully whispers "{x}" and the teacher does nothing.',
  'Is "{x}" against the community guidelines?',
  'We removed a reply that said "{x}".',
  'He keeps messaging me things like "{x}", what can I do?',
  'Example of harassment from the training slides: "{x}"',
  'The review flagged the line "{x}" as a threat.',
  'I got a DM that said "{x}" — screenshot attached for the moderators.',
  // Seventeenth round: single quotes, and reports of words written on things.
  "Someone sprayed '{x}' on our garage door last night.",
  "The survey asked how hurtful phrases like '{x}' feel from a stranger.",
  "Reporting this account: it replied '{x}' under my photo.",
]

/** Ordinary requests, offers and remarks to "you": the n-gram weights must not learn that "you" is an attack. */
const EVERYDAY_PARTS: Parts = {
  ask: ['could you', 'can you', 'would you mind if you', 'please', 'when you have a minute, could you', 'do you want to'],
  errand: [
    'pick up the kids from practice', 'book a table for six', 'water the plants on friday', 'forward me the invoice', 'check the oven',
    'print two copies of the contract', 'call the plumber back', 'lock the back door', 'bring a jacket, it is cold', 'sign the birthday card',
    'review my pull request', 'feed the cat tonight', 'grab bread from the bakery', 'reserve the meeting room', 'text me when you land',
  ],
  offer: ['save you a seat', 'send you the slides', 'drive you to the airport', 'show you around the office', 'lend you my charger', 'get you a coffee', 'walk you through the setup', 'call you after lunch'],
  state: ['tired', 'busy today', 'a bit quiet', 'ready for the weekend', 'surprised', 'in a hurry', 'cold', 'happy with the result', 'stressed about the exam'],
  thing: ['train', 'package', 'order', 'flight', 'appointment', 'laptop', 'new phone', 'application', 'parcel', 'haircut'],
  news: ['arrived this morning', 'is delayed by an hour', 'was confirmed', 'looks great', 'is ready for pickup', 'got approved', 'is on the desk'],
}
const EVERYDAY = [
  '{ask} {errand}?', 'I can {offer} if you like', "I'll {offer} tomorrow", 'you seem {state}, want some tea?', 'your {thing} {news}',
  'you are welcome, any time', 'you are right, I forgot about that', 'did you see that your {thing} {news}?', 'you look {state}, take a break',
  'hey, {ask} {errand}', 'thanks, you saved me a lot of time', 'you are a genius, that fixed it', 'are you coming to dinner on sunday?',
  'you should try the new bakery, their bread is great', 'if you need anything, just ask', 'you can leave your bike in the hallway',
]

/**
 * Seventeenth round: people called vermin, disease, livestock or refuse, or to be disposed of; and the same words
 * about real animals, illnesses and rubbish.
 */
const DEHUMANISING_PARTS: Parts = {
  who: ['the protesters', 'those tourists', 'the people in that camp', 'my neighbours', 'the fans of the other team', 'the voters over there', 'those kids', 'the new tenants', 'that family', 'the crowd outside', 'they'],
  be: ['are', 'are just', 'are nothing but', 'are basically', 'are like'],
  beast: ['cockroaches', 'rats', 'vermin', 'parasites', 'leeches', 'maggots', 'a plague', 'a cancer', 'cattle', 'animals', 'a swarm of locusts', 'garbage', 'filth', 'an infestation'],
  // "he isn't a person, he's {beast}" takes the plural nouns too ("he's rats" is rare but the words are the point).
  rid: ['hose the whole lot of them into the river', 'flush them away', 'spray them like the pests they are', 'round them up and dump them somewhere', 'someone should exterminate the lot of them', 'smoke them out of the building'],
  creature: ['the rats in the barn', 'the cockroaches in the kitchen', 'the cattle in the north field', 'the locusts this summer', 'the maggots in the compost', 'the leeches in the pond'],
  problem: ['are a real problem this year', 'need dealing with before the inspection', 'came back after the rain', 'were counted by the vet', 'have to be moved to the other pen'],
  illness: ['The scan showed the cancer has spread', 'The plague killed a third of Europe', 'The virus spreads through droplets', 'Lice are common in primary schools'],
}
const DEHUMANISING_TEMPLATES = ['{who} {be} {beast}', '{who} {be} {beast}. {rid}', '{rid}, {who} {be} {beast}', "he isn't a person, he's {beast}", '{who} breed like rats']
const LITERAL_BEASTS = ['{creature} {problem}', '{illness}.', 'we have to get rid of {creature} before winter']
/** Mock praise around a deficit, and praise without one. */
const MOCK_PRAISE_PARTS: Parts = {
  frame: ['Congrats on the promotion!', 'Wow.', 'So brave of you.', 'Truly impressive.', 'Great take, genius.', "It's adorable", 'Bless your heart.', 'Well done, champ.', 'Real talent.'],
  deficit: [
    'Amazing what you can do with zero talent', 'I would explain it but I left my crayons at home', 'Careful, you might strain that single brain cell',
    'for someone who has clearly never opened a book', 'especially with that face', 'you spelled three words right', 'the bar was on the floor and you still tripped',
    'your cooking made me want to fast for a week', 'everyone feels sorry for you', 'you finally found the keyboard',
  ],
  real: ['you ran the whole marathon', 'the new design looks great', 'you passed the exam on the first try', 'the cake was delicious', 'you handled that client perfectly'],
}
const MOCK_PRAISE = ['{frame} {deficit}.', '{deficit}. {frame}']
const REAL_PRAISE = ['{frame} {real}.', 'Wow, {real}!']
/** Words that open like a threat, then a kind deed. */
const KIND_DEEDS = [
  "I know where you live, so I'll drop the spare keys off tonight",
  "I'd hate for you to miss the show, so I'll pick you up at six",
  "If you come back to town you'll find me at the same café with your favourite cake",
  "Watch your step on the stairs, I'll bring a lamp for the hallway",
  "I have your address now, so I'll send the birthday card on Monday",
  "You'll regret missing this party, so I saved you a plate",
  "Don't make me come over there, I'll bake you another pie if you don't answer",
]
/** Contempt for a group as a claim about what its members can do. */
const CAPABILITY_ATTACK_PARTS: Parts = {
  g: GROUP_PLURALS,
  role: ['leadership', 'engineering', 'politics', 'running a business', 'the army', 'science', 'a hard decision'],
  flaw: ['too emotional', 'too lazy', 'too stupid', 'too weak', 'too greedy'],
}
const CAPABILITY_ATTACKS = ["{g} just aren't built for {role}", '{g} are {flaw} for {role}', '{g} get {flaw} to make a hard call', 'every company that hires {g} ends up regretting it']

/**
 * Eighteenth round: sarcasm aimed at a person or a group (marked by its idioms: mock agreement, mock awe, "must be
 * exhausting", scare quotes, an eye-roll), against the same idioms aimed at things; written from general knowledge.
 */
const SARCASM_AT_PEOPLE_PARTS: Parts = {
  open: ['Oh great,', 'Ah yes,', 'Wow, another', 'Oh sure,', 'Yeah right,', 'What a shock,', 'Oh fantastic,', 'Well well,', 'Gee, thanks,', 'Oh wonderful,'],
  who: ['the guy who', 'our manager, who', 'the new hire who', 'this reviewer who', 'my coworker, who', 'the team lead who', 'the person who', 'the intern who'],
  did: ['thinks the earth is flat', 'broke the build three times today', 'forgot the client meeting again', "can't read a calendar", 'copied my work and took the credit', 'replied-all to the whole company', 'has never finished a task on time', 'mansplained my own thesis to me'],
  close: ['Truly a genius.', 'We are so blessed.', 'Real talent there.', 'Must be exhausting being that brilliant.', 'Call the newspapers.', 'A personal best.', 'What would we do without him.', 'Slow clap.', '🙄', 'Bless his heart.'],
  group: ['boomers', 'millennials', 'gen z', 'HR', 'management', 'nurses', 'teachers', 'politicians', 'tourists', 'interns', 'engineers', 'lawyers', 'the marketing team', 'men', 'women'],
  claim: ['are the hardest working people alive', 'really understand how actual work gets done', "never complain about anything, ever", 'are famous for their deep thinking', 'have such original ideas', 'always know best'],
  scare: ["'forgot'", "'working from home'", "'busy'", "'researching'", "'just asking questions'", "'helping'"],
  name: ['Derek', 'Tara', 'Kevin', 'Priya', 'Marcus', 'Sofia', 'Liam', 'Hannah'],
  act: ['his part of the project again', 'the deadline again', 'to reply for a week', 'all afternoon', 'during the outage', 'while we covered for her'],
}
const SARCASM_AT_PEOPLE = ['{open} {who} {did}. {close}', '{open} {group} {claim}. {close}', '{name} was {scare} {act}. {close}', 'Sure, {group} {claim} 🙄', '{open} you {did}. {close}', '{close} {name} {did}.']
const SARCASM_AT_THINGS_PARTS: Parts = {
  open: ['Oh great,', 'Ah yes,', 'Wow,', 'Oh fantastic,', 'Yeah right,', 'What a shock,', 'Oh wonderful,', 'Well,'],
  thing: ['the printer jammed again', 'it is raining on my day off', 'the train is late for the fifth time this week', 'my laptop decided to update during the demo', 'another Monday', 'the wifi died mid-call', 'the coffee machine is broken again', 'my phone fell in the sink'],
  close: ['Love that for me.', 'Best day ever.', 'Exactly what I needed.', 'Truly blessed.', 'Call the newspapers.', '🙄', 'Classic.'],
  self: ['I forgot my own birthday', 'I locked myself out again', 'I burned the toast twice', 'I wore two different shoes to work'],
}
const SARCASM_AT_THINGS = ['{open} {thing}. {close}', '{open} {self}. {close}', '{thing}, {close}']
/** Unwanted attention without sexual words, at work, from strangers, after no answer; and welcome words between partners. */
const ATTENTION_PARTS: Parts = {
  who: ['the new intern', 'my coworker', 'that nurse', 'the barista', 'the girl at the gym', 'Ms. Alvarez', 'Emma from accounting', 'the new hire', 'the receptionist'],
  remark: ['has a figure worth staring at', 'should wear those leggings every day', 'makes the meetings worth attending just for the view', 'would be prettier if she smiled more', 'and I should get drinks after hours, just the two of us', 'could give me some personal attention'],
  you: ["send me a pic of what you're wearing", "smile more sweetheart, you'd be prettier", "you'd look better in that skirt than in those jeans", "come by my office after hours and close the door", "if you want that promotion, let's discuss it over drinks at my place", "I'll keep texting until you say yes", "you can't ignore me at work forever", "you know how this works if you want the raise"],
  tail: ['😏', '😉', 'just saying', 'no pressure', 'lol', "don't be shy", ''],
  partner: ['my wife', 'my husband', 'my girlfriend', 'my boyfriend', 'my partner'],
  welcome: ['looks amazing in that dress tonight', 'still makes my heart skip after ten years', 'sent me the cutest selfie from the trip', 'is the best part of every date night'],
}
const UNWANTED_ATTENTION_TEXTS = ['{who} {remark} {tail}', '{you} {tail}', 'hey, {you} {tail}']
const WELCOME_ATTENTION = ['{partner} {welcome}', 'Happy anniversary to {partner}, who {welcome}', 'missed you all week, babe, {partner} {welcome}']
/** Patronising remarks, and plain explanations and help. */
const CONDESCENSION_PARTS: Parts = {
  put: ['Let me explain this slowly for you', 'Sweetie, the adults are talking', 'Did you even finish high school?', "Next time I'll draw it in crayon", "Don't strain yourself", 'Oh honey, no', 'Leave the spreadsheets to people who understand them', 'Try to keep up', 'Is this too complicated for you?', 'I used small words this time'],
  why: ['since the big words seem to confuse you', 'this is fifth grade material', 'so you can keep up', 'calendars apparently challenge you', "it's cute that you think you get it", ''],
  help: ['Here is a step-by-step guide for anyone new to this', 'Happy to go over it again on a call if that helps', 'The deadline is Friday; I have added it to the shared calendar', 'The second chart shows the same data by month', 'Let me know if any part is unclear and I will add an example'],
}
const CONDESCENSION_TEXTS = ['{put}, {why}.', '{put}. {why}', '{put}.']

const decorateLight = (text: string, random: () => number) => {
  const r = random()
  const capital = text[0].toUpperCase() + text.slice(1)
  if (r < 0.3) return capital + pick(['.', '!', '', '...'], random)
  if (r < 0.4) return text.toUpperCase()
  return text
}

/**
 * Nineteenth round: threats without a violent word or a weapon: the target shown to be watched or their routine
 * recited, harm foretold to them, their people or their things, a condition tied to it, exposure to their employer,
 * family or the public; beside the same words in care, business, idioms, fiction and boundaries.
 */
const QUIET_THREAT_PARTS: Parts = {
  seen: ['I was parked across from your building', 'I watched you leave the gym', 'I followed you to the station', 'I was behind you in the checkout line', 'I sat two tables away from you', 'I drove past your place'],
  when: ['on Friday', 'last night', 'this morning', 'again today', 'twice this week'],
  tail: ['You looked nervous.', 'Get used to it.', 'See you tomorrow.', "You won't always see me.", 'Nice jacket.', "You didn't even notice."],
  routine: ['leave the office', 'take the bus home', 'walk the dog by the canal', 'jog through the park', 'drop the kids at school', 'close up the shop'],
  time: ['every night around ten', 'every morning at seven', 'on Wednesdays', 'each evening', 'every Saturday'],
  menace: ['Just something to think about.', 'It gets quiet out there.', "I'd hate for you to forget that I know.", "I'll be around.", 'Funny how predictable people are.', 'Keep that in mind.'],
  yours: ['Your car', 'Your shop window', 'Your garage', 'That dog of yours', 'Your brother', 'Your little business', 'Your flat'],
  fate: ['is going to catch fire one of these nights', 'will end up a pile of ashes', 'might get hurt', 'could disappear', 'is going to have an accident', 'will never be the same'],
  cond: ['', ' if you keep this up', ' unless you drop the complaint', ' before the month is out'],
  if: ['If you go to the police', 'Testify against me', 'Leave me', 'Say one more word at the meeting', 'Report me again', 'If you tell anyone'],
  then: ['you will never feel safe again', 'your family is the one who pays', 'enjoy your last quiet weekend', "you won't be walking out the same way", 'that is only the beginning of what happens', "I'll settle it in person"],
  person: ['Your boss', 'Your wife', 'Your pastor', 'Your landlord', 'Your parents', 'Your followers', 'Your HR department'],
  getting: ['is getting', 'is about to see', 'will hear about', 'is going to receive'],
  what: ['every message you sent me', 'the screenshots', 'a very long email about you', 'your dating profile', 'what you did last summer'],
  media: ['the photos you sent', 'the screenshots', 'your old messages', 'the recordings'],
  detail: ['home address', 'real name', 'phone number', 'photos'],
  where: ['in every group chat', 'on the forum', 'online', 'on your company page'],
  unless: ['tonight', 'unless you apologise', 'if you block me', 'by Friday'],
}
const QUIET_THREATS = [
  '{seen} {when}. {tail}',
  'You {routine} {time}. {menace}',
  '{yours} {fate}{cond}.',
  '{if}, and {then}.',
  '{person} {getting} {what}.',
  'I still have {media}. {person} would be interested to see them.',
  "I'm posting your {detail} {where} {unless}.",
]
const QUIET_LOOKALIKES = [
  'You walk home late on Thursdays, so text me when you get in.', 'I saw you at the gym this morning, you looked great! Coffee soon?',
  'I know you park by the river; it floods when it rains, so move your car tonight.', 'Accidents happen on that road, please drive slowly.',
  "I'll be outside at six to pick you up.", "I was right behind you in the queue and didn't say hi, sorry!",
  'If the invoice is not paid by Friday, your account will be suspended.', 'Your parents will receive a copy of the report card next week.',
  'Your manager is getting the summary of the review tomorrow.', 'Late returns tend to cost a fee.',
  'If you miss the deadline, the landlord will start the eviction process as the contract says.',
  'Your team is going to get crushed on Saturday, see you at the pub after!', 'This exam is going to destroy me.', 'Your car is going to need new tyres before winter.',
  'In the game the dragon warns the party: your village will burn by dawn.', 'The villain tells the hero he knows where his family sleeps, and the music drops.',
  "If you message me again I'll block you and report the account.", 'Please stop coming to my work; next time I will call security.',
  'You jog through the park every morning? Take the lit path in winter.', 'Your followers are going to love this recipe.',
]
/** Help pages and notices speak to "you" about "your" things: the threats above must not make that a cue. */
const SECOND_PERSON_NOTICES = [
  'You can install it into your project with npm.', 'Your order has shipped and will arrive on Tuesday.', 'You will receive a confirmation e-mail shortly.',
  'Your password was changed; if this was you, you can ignore this message.', 'You can find the settings under your profile.', 'Your subscription renews next month.',
  'Your logo will appear on the page with a link to your website.', 'You can pass your own options as the second argument.', 'Your files stay on your computer.',
  'If you want to contribute, please open an issue first.', 'Your car is due for its annual inspection.', 'You can reach your account page from the menu.',
]

/**
 * `count` texts, about 45% toxic, drawn from the families above, then (seventeenth round) `count / 10` each of the new
 * toxic families and their hard negatives and `3 × count / 10` everyday sentences; deterministic for a seed.
 * Since the nineteenth round also `count / 20` threats without violent words, each beside a look-alike (or the
 * threat reported), an everyday text and a notice spoken to "you".
 */
export function toxicityFamilyRows(count: number, seed: number): ToxicityRow[] {
  const random = seededRandom(seed)
  const rows: ToxicityRow[] = []
  const toxic = (): { text: string; labels: ToxicityLabels } => {
    const k = random()
    if (k < 0.25) return { text: compose(pick(IDENTITY_ATTACKS, random), HOSTILE_GROUP, random), labels: L(1, 0, 0, 0, 1, 1) }
    if (k < 0.4) return { text: compose(pick(THREATS, random), THREAT_PARTS, random).replace(/\s+/g, ' ').trim(), labels: L(1, 1, 0, 1) }
    if (k < 0.55) return { text: compose(pick(VEILED_THREATS, random), VEILED_PARTS, random), labels: L(1, 0, 0, 1) }
    if (k < 0.64) return { text: compose(pick(HARASSMENT, random), HARASSMENT_PARTS, random), labels: L(1, 0, 0, 0, 0, 0, 1) }
    if (k < 0.72) return { text: compose(pick(HARASSMENT_MORE, random), HARASSMENT_MORE_PARTS, random), labels: L(1, 0, 0, 0, 0, 0, 1) }
    if (k < 0.81) return { text: compose(pick(SARCASM, random), SARCASM_PARTS, random), labels: L(1, 0, 0, 0, 1) }
    if (k < 0.9) return { text: compose(pick(SARCASM_MORE, random), SARCASM_MORE_PARTS, random), labels: L(1, 0, 0, 0, 1) }
    return { text: compose(pick(SELF_HARM, random), SELF_HARM_PARTS, random), labels: L(1, 1, 0, 1, 1) }
  }
  // Seventeenth round, drawn after the rows above so that they stay as they were.
  const moreToxic = (): { text: string; labels: ToxicityLabels } => {
    const k = random()
    if (k < 0.45) return { text: compose(pick(DEHUMANISING_TEMPLATES, random), DEHUMANISING_PARTS, random), labels: L(1, 0, 0, 0, 1) }
    if (k < 0.75) return { text: compose(pick(MOCK_PRAISE, random), MOCK_PRAISE_PARTS, random), labels: L(1, 0, 0, 0, 1) }
    return { text: compose(pick(CAPABILITY_ATTACKS, random), CAPABILITY_ATTACK_PARTS, random), labels: L(1, 0, 0, 0, 1, 1) }
  }
  while (rows.length < count) {
    const r = random()
    if (r < 0.45) {
      const { text, labels } = toxic()
      rows.push({ text: decorateLight(text, random), labels })
    } else if (r < 0.55) {
      // The same toxic texts, quoted or reported: the words are there, nobody is attacked.
      rows.push({ text: pick(REPORT_FRAMES, random).replace('{x}', toxic().text), labels: L(0) })
    } else if (r < 0.68) rows.push({ text: decorateLight(compose(pick(COUNTER_SPEECH, random), HOSTILE_GROUP, random), random), labels: L(0) })
    else if (r < 0.73) rows.push({ text: compose(pick(CLINICAL, random), CLINICAL_PARTS, random), labels: L(0) })
    else if (r < 0.75) rows.push({ text: decorateLight(compose(pick(KIND_CONDITIONALS, random), { careful: CAREFUL }, random), random), labels: L(0) })
    else if (r < 0.8) rows.push({ text: decorateLight(compose(pick(GENUINE_PRAISE, random), PRAISE_PARTS, random), random), labels: L(0) })
    else if (r < 0.83) rows.push({ text: decorateLight(compose(pick(CRITICISM, random), CRITICISM_PARTS, random), random), labels: L(0) })
    else if (r < 0.86) rows.push({ text: decorateLight(compose(pick(DISAGREEMENT, random), DISAGREEMENT_PARTS, random), random), labels: L(0) })
    else if (r < 0.88) rows.push({ text: decorateLight(compose(pick(SUPPORT, random), SUPPORT_PARTS, random), random), labels: L(0) })
    else rows.push({ text: decorateLight(compose(pick(EVERYDAY, random), EVERYDAY_PARTS, random), random), labels: L(0) })
  }
  for (let i = 0; i < count / 10; i++) {
    const { text, labels } = moreToxic()
    rows.push({ text: decorateLight(text, random), labels })
    const r = random()
    const clean =
      r < 0.35
        ? compose(pick(LITERAL_BEASTS, random), DEHUMANISING_PARTS, random)
        : r < 0.6
          ? compose(pick(REAL_PRAISE, random), MOCK_PRAISE_PARTS, random)
          : r < 0.8
            ? pick(KIND_DEEDS, random)
            : pick(REPORT_FRAMES, random).replace('{x}', moreToxic().text)
    rows.push({ text: decorateLight(clean, random), labels: L(0) })
    // Short everyday sentences, greetings and questions ("How are you?"): the generated toxic texts are short and the
    // prose is long, so without these (three for each row above) a short plain sentence scored about 0.5.
    for (let k = 0; k < 3; k++) rows.push({ text: everydaySentence(random), labels: L(0) })
  }
  // Eighteenth round, drawn after the rows above so that they stay as they were: sarcasm at people, unwanted attention
  // and condescension, each beside its hard negatives (sarcasm at things, words between partners, plain help, and the
  // toxic texts reported).
  for (let i = 0; i < count / 10; i++) {
    const k = random()
    const [text, labels] =
      k < 0.4
        ? [compose(pick(SARCASM_AT_PEOPLE, random), SARCASM_AT_PEOPLE_PARTS, random), L(1, 0, 0, 0, 1)]
        : k < 0.7
          ? [compose(pick(UNWANTED_ATTENTION_TEXTS, random), ATTENTION_PARTS, random), L(1, 0, 0, 0, 0, 0, 1)]
          : [compose(pick(CONDESCENSION_TEXTS, random), CONDESCENSION_PARTS, random), L(1, 0, 0, 0, 1)]
    rows.push({ text: decorateLight(text.replace(/\s+/g, ' ').trim(), random), labels })
    const r = random()
    const clean =
      r < 0.35
        ? compose(pick(SARCASM_AT_THINGS, random), SARCASM_AT_THINGS_PARTS, random)
        : r < 0.6
          ? compose(pick(WELCOME_ATTENTION, random), ATTENTION_PARTS, random)
          : r < 0.8
            ? compose('{help}.', CONDESCENSION_PARTS, random)
            : pick(REPORT_FRAMES, random).replace('{x}', text)
    rows.push({ text: decorateLight(clean, random), labels: L(0) })
    // Everyday texts of two or three sentences keep the share of toxic texts, and of long ones, where it was: without
    // them the new rows (longer than most clean ones) taught that length is toxic, and README paragraphs scored 0.5-0.6.
    for (let k = 0; k < 2; k++) rows.push({ text: Array.from({ length: 2 + Math.floor(random() * 2) }, () => everydaySentence(random)).join(' '), labels: L(0) })
  }
  // Nineteenth round, drawn after the rows above so that they stay as they were: threats without violent words, each
  // beside a look-alike (care, business, idioms, fiction, boundaries) or the threat reported, an everyday text, and a
  // notice spoken to "you" (without it README paragraphs flagged went from 91 to 106 of 11,258).
  for (let i = 0; i < count / 20; i++) {
    const text = compose(pick(QUIET_THREATS, random), QUIET_THREAT_PARTS, random).replace(/\s+/g, ' ').trim()
    rows.push({ text: decorateLight(text, random), labels: L(1, 0, 0, 1) })
    const clean = random() < 0.75 ? pick(QUIET_LOOKALIKES, random) : pick(REPORT_FRAMES, random).replace('{x}', text)
    rows.push({ text: decorateLight(clean, random), labels: L(0) })
    rows.push({ text: Array.from({ length: 1 + Math.floor(random() * 3) }, () => everydaySentence(random)).join(' '), labels: L(0) })
    rows.push({ text: pick(SECOND_PERSON_NOTICES, random), labels: L(0) })
  }
  return rows
}
