/**
 * Clean text of the registers the package prose lacks, for the gibberish engine: short everyday sentences, greetings,
 * questions and chat lines, and code-like text (snippets and one-liners in many programming languages, shell
 * commands, log lines, configuration lines, commit messages). The fortunes, glosses and READMEs are long and literary;
 * the classifier learned from them that a short plain sentence ("You are a wonderful person.") is word salad and that
 * a Python loop is mild gibberish (issue 18). Every text is composed from several independently drawn parts of the
 * phrase lists below, written for this generator; nothing here is taken from an evaluation set.
 */
import { pick, seededRandom } from './random'

type Random = () => number
const maybe = (p: number, text: string, random: Random) => (random() < p ? text : '')
const capitalise = (s: string) => s[0].toUpperCase() + s.slice(1)
const tidy = (s: string) =>
  s
    .replace(/ {2,}/g, ' ')
    .replace(/ ([,.!?])/g, '$1')
    .replace(/\b([aA]) ([aeiou])/g, '$1n $2')
    .trim()

const GREETINGS = ['hi', 'hello', 'hey', 'good day', 'good afternoon', 'good evening', 'morning', 'hey there', 'hi all', 'hello everyone', 'dear team', 'hiya', 'welcome back']
const NAMES = ['Sam', 'Alex', 'Maya', 'Jonas', 'Leila', 'Ben', 'Grace', 'Tariq', 'Nina', 'Oscar', 'Ruth', 'Yusuf', 'Clara', 'Dev']
const FOLLOW_UPS = [
  'how are you?', "how's it going?", 'how was your weekend?', 'hope you are well.', 'long time no see!', 'nice to meet you.',
  'thanks for joining.', 'quick question for you.', 'hope your day is going well.', 'happy Friday!', 'how was the trip?',
  'did you sleep well?', 'hope the move went smoothly.', 'good to hear from you.', 'what are you up to?',
]

/** Subject and the verb phrases that agree with it (first and plural persons take the base form, the past needs no agreement). */
const PLURAL_SUBJECTS = ['I', 'we', 'you', 'they', 'my parents', 'our neighbours', 'the kids', 'my friends and I']
const SINGULAR_SUBJECTS = ['she', 'he', 'my sister', 'our manager', 'the baby', 'my dad', 'the new intern', 'my flatmate', 'the landlord']
const OBJECT_PHRASES: [string, string, string][] = [
  // base, third person, past
  ['love this band', 'loves this band', 'loved this band'],
  ['need a new phone charger', 'needs a new phone charger', 'needed a new phone charger'],
  ['want to go to the beach', 'wants to go to the beach', 'wanted to go to the beach'],
  ['like the blue one better', 'likes the blue one better', 'liked the blue one better'],
  ['work from home on Mondays', 'works from home on Mondays', 'worked from home on Monday'],
  ['have a cold', 'has a cold', 'had a cold'],
  ['walk the dog every morning', 'walks the dog every morning', 'walked the dog this morning'],
  ['cook dinner for everyone', 'cooks dinner for everyone', 'cooked dinner for everyone'],
  ['forget my keys all the time', 'forgets the keys all the time', 'forgot my keys again'],
  ['play football after school', 'plays football after school', 'played football after school'],
  ['drink too much coffee', 'drinks too much coffee', 'drank too much coffee'],
  ['need more time for the project', 'needs more time for the project', 'needed more time for the project'],
  ['know a good place for lunch', 'knows a good place for lunch', 'found a good place for lunch'],
  ['call my grandmother on Sundays', 'calls her grandmother on Sundays', 'called my grandmother yesterday'],
  ['take the bus to work', 'takes the bus to work', 'took the bus to work'],
  ['read before bed', 'reads before bed', 'read a whole book last night'],
  ['miss the old office', 'misses the old office', 'missed the last train'],
  ['enjoy long walks in the park', 'enjoys long walks in the park', 'enjoyed the concert'],
  ['get up early on weekdays', 'gets up early on weekdays', 'got up early today'],
  ['agree with you', 'agrees with you', 'agreed with you'],
  ['hate waiting in line', 'hates waiting in line', 'waited in line for an hour'],
  ['watch the news at six', 'watches the news at six', 'watched a great film'],
]
const TIMES = ['today', 'tomorrow', 'tonight', 'this weekend', 'next week', 'on Saturday', 'after lunch', 'in the morning', 'later', 'this afternoon', 'at noon', 'soon', 'last night', 'yesterday']
const ADJECTIVES = ['marvellous', 'kind', 'great', 'lovely', 'brilliant', 'generous', 'thoughtful', 'talented', 'patient', 'funny', 'amazing', 'helpful', 'good', 'caring']
const PEOPLE = ['human being', 'friend', 'teacher', 'colleague', 'cook', 'neighbour', 'listener', 'mother', 'brother', 'host', 'boss', 'partner']
const THINGS = ['meal', 'idea', 'day', 'party', 'game', 'film', 'trip', 'view', 'surprise', 'present', 'talk', 'weekend', 'question', 'photo']
const FEELINGS = ['tired', 'happy', 'hungry', 'excited', 'nervous', 'busy', 'sorry', 'lucky', 'ready', 'bored', 'sure', 'late', 'proud of you', 'glad you came']
const PLACES = ['the station', 'the office', 'the park', 'home', 'the gym', 'the shop', 'the cafe', 'school', 'the airport', 'the library', 'the doctor', 'work']
const QUESTIONS = [
  () => 'can we chat {time}?', () => 'are you coming {time}?', () => 'what time is it?', () => 'where did you park?', () => 'did you get my message?',
  () => 'do you want some tea?', () => 'is everything okay?', () => 'who is picking up the kids?', () => 'have you eaten yet?', () => 'when does the shop close?',
  () => 'could you call me back {time}?', () => 'shall we meet at {place}?', () => 'how much was it?', () => 'which one do you prefer?', () => 'why is the door open?',
  () => 'are we still on for {time}?', () => 'what should I bring?', () => 'do you need a lift to {place}?', () => 'is it going to rain {time}?', () => 'how did the interview go?',
]
const CHAT = [
  'sounds good', 'see you soon', 'on my way', 'running late, sorry', 'no worries', "that's hilarious", 'miss you', "can't wait", 'happy birthday',
  'congrats on the new job', 'good luck today', 'thanks a lot', 'thank you so much', 'you made my day', 'call me when you can', 'almost there',
  'just landed', 'all good here', 'let me know', 'talk soon', 'love it', 'count me in', 'same here', 'fair enough', 'not sure yet', 'take care',
  'get well soon', 'sleep well', 'drive safe', 'well done', 'nice one', 'great news', 'so sorry to hear that', 'me too', 'what a day',
]

function statement(random: Random): string {
  const r = random()
  const time = pick(TIMES, random)
  if (r < 0.3) {
    const [base, third, past] = pick(OBJECT_PHRASES, random)
    const s = random()
    if (s < 0.4) return `${pick(PLURAL_SUBJECTS, random)} ${base}`
    if (s < 0.7) return `${pick(SINGULAR_SUBJECTS, random)} ${third}`
    return `${pick([...PLURAL_SUBJECTS, ...SINGULAR_SUBJECTS], random)} ${past}`
  }
  if (r < 0.45) return `${pick(['you are a', 'she is a', 'he is such a', 'you were a', 'what a', 'you are such a'], random)} ${pick(ADJECTIVES, random)} ${pick(PEOPLE, random)}`
  if (r < 0.55) return `${pick(['that was a', 'it was a', 'what a', 'thanks for the', 'this is a'], random)} ${pick(ADJECTIVES, random)} ${pick(THINGS, random)}`
  if (r < 0.68) return `${pick(['I am', "I'm", 'we are', "we're", 'she is', 'they were', 'I was'], random)} ${maybe(0.4, pick(['so', 'really', 'a bit', 'very'], random), random)} ${pick(FEELINGS, random)}`
  if (r < 0.8) return `${pick(["I'll be at", "we're going to", 'see you at', 'meet me at', 'I left it at', 'she is still at'], random)} ${pick(PLACES, random)} ${maybe(0.6, time, random)}`
  if (r < 0.9) return `${pick(['the weather is', 'the food was', 'the room is', 'the film was', 'the traffic is', 'the water is', 'the coffee here is'], random)} ${maybe(0.4, pick(['really', 'so', 'quite', 'pretty'], random), random)} ${pick(['lovely', 'terrible', 'cold', 'great', 'awful', 'fine', 'amazing', 'hot', 'good'], random)} ${maybe(0.4, time === 'tomorrow' ? 'today' : time, random)}`
  return `${pick(["let's", 'we should', 'I might', 'you could', 'maybe we can'], random)} ${pick(['have lunch', 'go for a walk', 'watch a film', 'stay in', 'order pizza', 'try again', 'leave early', 'take a break', 'meet up'], random)} ${maybe(0.7, time, random)}`
}

/** Longer questions and requests, the register of a help desk or an assistant: a question word, a noun phrase, a purpose. */
const QUESTION_NOUNS = ['groceries', 'documents', 'tools', 'ingredients', 'plants', 'shoes', 'apps', 'books', 'cleaning products', 'spare parts', 'paint', 'cables', 'snacks', 'clothes', 'papers', 'batteries']
const QUESTION_VERBS = ['buy', 'bring', 'pack', 'use', 'order', 'combine', 'keep', 'take', 'prepare', 'replace', 'store', 'recycle']
const PURPOSES = [
  'for the trip', 'to fix the fence', 'to bake bread at home', 'before the inspection', 'to keep the garden tidy', 'for a small office',
  'to get started with painting', 'for a long flight', 'for the first week at university', 'to move house', 'for a birthday party',
  'to save money on heating', 'in a small kitchen', 'for a camping weekend', 'when the power goes out', 'to make the room warmer',
]
const PROBLEMS = ['keep turning off', 'make a strange noise', 'smell like smoke', 'stop charging', 'run so slowly', 'leak after rain', 'feel so heavy', 'get so hot']
const DEVICES = ['laptop', 'fridge', 'car', 'phone', 'washing machine', 'bike', 'kettle', 'heater', 'printer', 'boiler']
/** Passive voice, which the composed statements above never use: "can be stored", "was delivered". */
const PARTICIPLES = ['stored', 'washed', 'recycled', 'mixed', 'delivered', 'repaired', 'painted', 'frozen', 'shared', 'printed', 'replaced', 'collected', 'cancelled', 'moved']
function passive(random: Random): string {
  const r = random()
  if (r < 0.2) return `${pick(['can', 'should', 'must'], random)} ${pick(QUESTION_NOUNS, random)} be ${pick(PARTICIPLES, random)} ${pick(PURPOSES, random)}?`
  if (r < 0.4) return `${pick(['which', 'what', 'what kind of'], random)} ${pick(QUESTION_NOUNS, random)} ${pick(['can be', 'should be', 'need to be', 'are'], random)} ${pick(PARTICIPLES, random)} ${pick(PURPOSES, random)}?`
  if (r < 0.7) return `the ${pick(QUESTION_NOUNS, random)} ${pick(['were', 'have been', 'will be', 'are being', 'had been'], random)} ${pick(PARTICIPLES, random)} ${pick(['by the neighbours', 'last week', 'this morning', 'on time', 'by mistake', 'before we arrived'], random)}`
  return `my ${pick(DEVICES, random)} ${pick(['was', 'has been', 'is being', 'will be'], random)} ${pick(PARTICIPLES, random)} ${pick(['by the shop', 'twice this year', 'at last', 'for free', 'over the weekend'], random)}`
}

function longQuestion(random: Random): string {
  const r = random()
  if (r < 0.25) return passive(random)
  if (r < 0.35)
    return `${pick(['what', 'which', 'what kind of', 'how many'], random)} ${pick(QUESTION_NOUNS, random)} ${pick(['should I', 'can we', 'do I need to', 'could you', 'would you', 'is it best to'], random)} ${pick(QUESTION_VERBS, random)} ${pick(PURPOSES, random)}?`
  if (r < 0.55) return `${pick(['is it safe to', 'is it okay to', 'is it worth it to', 'do you think I should'], random)} ${pick(QUESTION_VERBS, random)} ${pick(['the', 'these', 'old', 'new'], random)} ${pick(QUESTION_NOUNS, random)} ${pick(PURPOSES, random)}?`
  if (r < 0.75) return `why does my ${pick(DEVICES, random)} ${pick(PROBLEMS, random)}${maybe(0.5, ` ${pick(['at night', 'after an hour', 'every morning', 'when it is cold', 'since last week'], random)}`, random)}?`
  return `${pick(['how long does it take to', 'how much does it cost to', 'what is the easiest way to', 'where can I learn to', 'who should I ask to'], random)} ${pick(['repair a', 'clean a', 'sell a', 'paint a', 'insure a', 'replace a'], random)} ${pick(DEVICES, random)}${maybe(0.5, ` ${pick(PURPOSES, random)}`, random)}?`
}

function finish(text: string, mark: string, random: Random): string {
  const t = tidy(text)
  const r = random()
  if (r < 0.6) return `${capitalise(t)}${mark}`
  if (r < 0.85) return t
  return `${capitalise(t)}${pick(['!', '!!', ' :)', '...'], random)}`
}

/** A short everyday sentence, greeting, question or chat line, as people type them. */
export function everydaySentence(random: Random): string {
  const r = random()
  if (r < 0.15) {
    const greeting = `${pick(GREETINGS, random)}${maybe(0.4, ` ${pick(NAMES, random)}`, random)}`
    const follow = random() < 0.6 ? ` ${pick(FOLLOW_UPS, random)}` : ''
    return finish(`${greeting}${follow ? `,${follow}` : ''}`, follow ? '' : pick(['!', '.', ','], random), random)
  }
  if (r < 0.45) return finish(statement(random), '.', random)
  if (r < 0.55) return finish(pick(QUESTIONS, random)().replace('{time}', pick(TIMES, random)).replace('{place}', pick(PLACES, random)), '', random)
  if (r < 0.65) return finish(longQuestion(random), '', random)
  if (r < 0.8) return finish(pick(CHAT, random), pick(['!', '.', ''], random), random)
  // Two short pieces in one message.
  return `${finish(statement(random), '.', random)} ${finish(pick(random() < 0.5 ? CHAT : FOLLOW_UPS, random), '', random)}`
}

// Code-like text. Identifiers, keywords and values are drawn independently, so no snippet is a fixed template.
const NOUNS = ['user', 'users', 'items', 'config', 'result', 'data', 'path', 'name', 'value', 'index', 'total', 'response', 'request', 'buffer', 'file', 'line', 'count', 'order', 'orders', 'token', 'row', 'rows', 'node', 'cache', 'queue', 'event', 'message', 'price', 'report', 'session']
const VERBS = ['get', 'load', 'parse', 'read', 'fetch', 'compute', 'update', 'save', 'send', 'build', 'check', 'render', 'handle', 'find', 'delete', 'create', 'open', 'close', 'validate', 'format']
const TABLES = ['accounts', 'invoices', 'products', 'employees', 'sessions', 'events', 'payments', 'orders', 'tickets', 'reviews']
const COLUMNS = ['id', 'email', 'created_at', 'status', 'amount', 'title', 'owner_id', 'updated_at', 'city', 'total']
const MODULES = ['os', 'sys', 'json', 're', 'math', 'time', 'requests', 'numpy', 'collections', 'pathlib', 'fs', 'path', 'react', 'express', 'lodash']
const COMMANDS = ['ls -la', 'cd ..', 'npm install', 'npm run build', 'git status', 'git pull --rebase', 'docker compose up -d', 'pip install -r requirements.txt', 'make test', 'cargo build --release', 'go test ./...', 'kubectl get pods', 'sudo apt-get update', 'chmod +x run.sh', 'tar -xzf archive.tar.gz', 'ssh deploy@server', 'curl -s localhost:8080/health', 'grep -rn TODO src']
const COMMIT_VERBS = ['fix', 'add', 'remove', 'update', 'refactor', 'rename', 'bump', 'revert', 'document', 'test', 'handle', 'move']
const COMMIT_OBJECTS = ['empty input in the parser', 'retry to the upload job', 'typo in the readme', 'flaky login test', 'null check before save', 'dead code in utils', 'timeout for slow requests', 'dark mode toggle', 'dependency versions', 'logging in the worker', 'pagination on the search page', 'support for nested folders']

const camel = (a: string, b: string) => a + b[0].toUpperCase() + b.slice(1)
const snake = (a: string, b: string) => `${a}_${b}`
const num = (random: Random) => String(pick([0, 1, 2, 3, 5, 10, 42, 100, 255, 1024, 3600], random))
const str = (random: Random) => {
  const quote = pick(['"', "'"], random)
  return `${quote}${pick(['/', 'utf-8', 'done', 'error', 'localhost', 'data.csv', 'hello', 'admin', '%s: %d', 'ok'], random)}${quote}`
}

const SNIPPETS: ((random: Random) => string)[] = [
  (r) => `import ${pick(MODULES, r)}`,
  (r) => `from ${pick(MODULES, r)} import ${pick(NOUNS, r)}`,
  (r) => `def ${snake(pick(VERBS, r), pick(NOUNS, r))}(${pick(NOUNS, r)}):\n    return ${pick(NOUNS, r)}.${pick(VERBS, r)}()`,
  (r) => `for ${pick(['i', 'x', 'item', 'row', 'f'], r)} in ${pick(['range(10)', pick(NOUNS, r), `os.listdir(${str(r)})`, `${pick(NOUNS, r)}.items()`], r)}:\n    print(${pick(['i', 'x', 'item', 'row', 'f'], r)})`,
  (r) => `if ${pick(NOUNS, r)} is None:\n    raise ValueError(${str(r)})`,
  (r) => `with open(${str(r)}) as f:\n    ${pick(NOUNS, r)} = f.read()`,
  (r) => `const ${camel(pick(NOUNS, r), pick(NOUNS, r))} = await ${camel(pick(VERBS, r), pick(NOUNS, r))}(${pick(NOUNS, r)});`,
  (r) => `let ${pick(NOUNS, r)} = ${pick(NOUNS, r)}.${pick(['map', 'filter', 'find', 'some'], r)}((${pick(['x', 'v', 'item'], r)}) => ${pick(['x', 'v', 'item'], r)}.${pick(NOUNS, r)});`,
  (r) => `function ${camel(pick(VERBS, r), pick(NOUNS, r))}(${pick(NOUNS, r)}) {\n  return ${pick(NOUNS, r)} ${pick(['+', '*', '-', '&&', '||'], r)} ${num(r)};\n}`,
  (r) => `console.log(${pick(NOUNS, r)}.length);`,
  (r) => `export default function ${capitalise(pick(NOUNS, r))}() { return <div className=${str(r)}>{${pick(NOUNS, r)}}</div> }`,
  (r) => `public static void main(String[] args) {\n    System.out.println(${str(r)});\n}`,
  (r) => `private final ${pick(['int', 'String', 'List<String>', 'long'], r)} ${camel(pick(NOUNS, r), pick(NOUNS, r))};`,
  (r) => `#include <${pick(['stdio.h', 'stdlib.h', 'string.h', 'vector', 'iostream'], r)}>`,
  (r) => `int ${pick(NOUNS, r)} = ${num(r)};\nwhile (${pick(NOUNS, r)} > 0) { ${pick(NOUNS, r)}--; }`,
  (r) => `printf("%d\\n", ${pick(NOUNS, r)});`,
  (r) => `func ${capitalise(pick(VERBS, r))}(${pick(NOUNS, r)} string) error {\n\treturn nil\n}`,
  (r) => `if err != nil {\n\treturn err\n}`,
  (r) => `fmt.Println(${pick(NOUNS, r)})`,
  (r) => `fn ${snake(pick(VERBS, r), pick(NOUNS, r))}(&self) -> Result<(), Error> {\n    Ok(())\n}`,
  (r) => `let mut ${pick(NOUNS, r)} = Vec::new();`,
  (r) => `SELECT ${pick(COLUMNS, r)}, ${pick(COLUMNS, r)} FROM ${pick(TABLES, r)} WHERE ${pick(COLUMNS, r)} ${pick(['=', '>', '<', 'IS NOT'], r)} ${pick(["'open'", '10', 'NULL', '0'], r)};`,
  (r) => `UPDATE ${pick(TABLES, r)} SET ${pick(COLUMNS, r)} = ${pick(["'closed'", '0', 'now()'], r)} WHERE id = ${num(r)};`,
  (r) => `INSERT INTO ${pick(TABLES, r)} (${pick(COLUMNS, r)}, ${pick(COLUMNS, r)}) VALUES (${num(r)}, 'x');`,
  (r) => `CREATE INDEX idx_${pick(COLUMNS, r)} ON ${pick(TABLES, r)} (${pick(COLUMNS, r)});`,
  (r) => `$ ${pick(COMMANDS, r)}`,
  (r) => pick(COMMANDS, r),
  (r) => `${pick(COMMANDS, r)} && ${pick(COMMANDS, r)}`,
  (r) => `git commit -m "${pick(COMMIT_VERBS, r)} ${pick(COMMIT_OBJECTS, r)}"`,
  (r) => `${pick(['', 'feat: ', 'fix: ', 'chore: ', 'docs: '], r)}${pick(COMMIT_VERBS, r)} ${pick(COMMIT_OBJECTS, r)}`,
  (r) => `${capitalise(pick(COMMIT_VERBS, r))} ${pick(COMMIT_OBJECTS, r)}`,
  (r) => `${pick(['PORT', 'NODE_ENV', 'LOG_LEVEL', 'MAX_WORKERS', 'DATABASE_URL'], r)}=${pick(['8080', 'production', 'debug', '4', 'file:./dev.db'], r)}`,
  (r) => `${snake(pick(NOUNS, r), pick(['timeout', 'size', 'limit', 'enabled', 'dir'], r))}: ${pick(['30', 'true', 'false', '/var/data', '512'], r)}`,
  (r) => `"${camel(pick(NOUNS, r), pick(NOUNS, r))}": ${pick(['true', '42', '"auto"', 'null', '[]'], r)},`,
  (r) => `[${pick(['server', 'database', 'logging', 'build'], r)}]\n${pick(['host', 'port', 'level', 'target'], r)} = ${pick(['"0.0.0.0"', '5432', '"info"', '"es2020"'], r)}`,
  (r) => `<${pick(['div', 'span', 'button', 'section'], r)} class="${pick(NOUNS, r)}">${capitalise(pick(NOUNS, r))}</${pick(['div', 'span', 'button', 'section'], r)}>`,
  (r) => `.${pick(NOUNS, r)} { ${pick(['margin', 'padding', 'color', 'display'], r)}: ${pick(['0 auto', '8px', '#333', 'flex'], r)}; }`,
  (r) => `Traceback (most recent call last):\n  File "${pick(NOUNS, r)}.py", line ${num(r)}, in <module>\n${pick(['KeyError', 'TypeError', 'IndexError'], r)}: '${pick(NOUNS, r)}'`,
  (r) => `    at ${camel(pick(VERBS, r), pick(NOUNS, r))} (${pick(NOUNS, r)}.js:${num(r)}:${num(r)})`,
  (r) => `[${pick(['INFO', 'WARN', 'ERROR', 'DEBUG'], r)}] ${pick(['loaded', 'saved', 'sent', 'skipped', 'processed', 'found', 'dropped'], r)} ${num(r)} ${pick(NOUNS, r)} in ${num(r)}ms`,
  (r) => `${pick(['GET', 'POST', 'PUT', 'DELETE'], r)} /api/${pick(NOUNS, r)}/${num(r)} ${pick(['200', '201', '404', '500'], r)} ${num(r)}ms`,
  (r) => `FROM node:${pick(['20', '22', '18'], r)}-alpine\nRUN npm ci\nCMD ["node", "server.js"]`,
  (r) => `- ${pick(['name', 'run', 'uses'], r)}: ${pick(['Install dependencies', 'npm test', 'actions/checkout@v4'], r)}`,
  (r) => `@@ -${num(r)},${num(r)} +${num(r)},${num(r)} @@`,
  (r) => `${pick(NOUNS, r)} = [${num(r)}, ${num(r)}, ${num(r)}]`,
  (r) => `${pick(NOUNS, r)}.${pick(['append', 'push', 'add'], r)}(${pick(NOUNS, r)})`,
  (r) => `return ${pick(NOUNS, r)}.${pick(VERBS, r)}(${pick(NOUNS, r)}) ${pick(['?? null', '|| []', 'or None', '!= 0'], r)}`,
]

/** A code snippet, command, log, configuration line or commit message; sometimes two joined by a newline. */
export function codeLikeText(random: Random): string {
  const one = pick(SNIPPETS, random)(random)
  return random() < 0.2 ? `${one}\n${pick(SNIPPETS, random)(random)}` : one
}

/** `count` texts: about two thirds everyday sentences, one third code-like text. */
export function everydayAndCode(count: number, seed: number): { everyday: string[]; code: string[] } {
  const random = seededRandom(seed)
  const everyday: string[] = []
  const code: string[] = []
  for (let i = 0; i < count; i++) {
    if (random() < 0.67) everyday.push(everydaySentence(random))
    else code.push(codeLikeText(random))
  }
  return { everyday, code }
}

// Everyday sentences with the mistakes of learners and machine translation, for the mild class: the words are all
// real and in order, only agreement, verb forms, articles, prepositions or word choice are wrong.
const WRONG_VERB_FORMS: ((random: Random) => string)[] = [
  (r) => {
    const [base] = pick(OBJECT_PHRASES, r)
    return `${pick(SINGULAR_SUBJECTS, r)} ${base}` // "my sister love this song"
  },
  (r) => {
    const [, third] = pick(OBJECT_PHRASES, r)
    return `${pick(PLURAL_SUBJECTS, r)} ${third}` // "they loves this song"
  },
  (r) => {
    const [, , past] = pick(OBJECT_PHRASES, r)
    return `${pick(PLURAL_SUBJECTS, r)} ${pick(['will', 'can', 'should', 'must', "didn't", 'did not', 'want to'], r)} ${past}` // "we will walked the dog"
  },
  (r) => {
    const [, third] = pick(OBJECT_PHRASES, r)
    return `${pick(SINGULAR_SUBJECTS, r)} ${pick(["doesn't", 'can', 'will', 'does not', 'should'], r)} ${third}` // "she doesn't loves"
  },
  (r) => {
    const [, third, past] = pick(OBJECT_PHRASES, r)
    return `${pick(['did', 'does', 'do', 'can'], r)} ${pick(['you', 'they', 'she', 'your brother'], r)} ${pick([third, past], r)}?`
  },
  (r) => `${pick(['I', 'you', 'we', 'they'], r)} ${pick(['is', 'was', 'has been'], r)} ${pick(FEELINGS, r)} ${maybe(0.5, pick(TIMES, r), r)}`,
  (r) => `${pick(['he', 'she', 'my sister', 'the baby'], r)} ${pick(['are', 'were', 'have been', 'am'], r)} ${pick(FEELINGS, r)} ${maybe(0.5, pick(TIMES, r), r)}`,
  (r) => `${pick(['I', 'we', 'they'], r)} ${pick(['am', 'are', 'was'], r)} ${pick(['go', 'need', 'want', 'like', 'know', 'think', 'understand', 'remember'], r)} ${pick(['it', 'the answer', 'this place', 'him', 'what you mean'], r)}`,
]
const WRONG_FUNCTION_WORDS: ((random: Random) => string)[] = [
  (r) => `${pick(['I', 'we', 'she'], r)} ${pick(['arrived to', 'went at', 'listened', 'depended of', 'waited', 'entered into', 'returned back to'], r)} ${pick(PLACES, r)} ${maybe(0.5, pick(TIMES, r), r)}`,
  (r) => `${pick(['can you give me', 'I need', 'she bought', 'we have'], r)} ${pick(['a', 'an', 'many', 'a few', 'two'], r)} ${pick(['informations', 'advices', 'furnitures', 'homeworks', 'luggages', 'equipments', 'news'], r)}`,
  (r) => `${pick(['I', 'we', 'they'], r)} ${pick(['have', 'had'], r)} ${pick(['two', 'three', 'many', 'several'], r)} ${pick(['child', 'cat', 'idea', 'friend', 'problem', 'sister'], r)} ${maybe(0.5, pick(['at home', 'in the office', 'this year'], r), r)}`,
  (r) => `${pick(['the', 'a'], r)} ${pick(THINGS, r)} ${pick(['was very', 'is more', 'is most', 'was so much'], r)} ${pick(['good', 'better', 'bigger', 'interesting', 'best'], r)} ${pick(['than', 'then', 'of', 'that'], r)} ${pick(['last time', 'the other one', 'before', 'I think'], r)}`,
  (r) => `${pick(['since', 'during', 'from'], r)} ${pick(['three years', 'two weeks', 'yesterday', 'a long time'], r)} ${pick(['I live here', 'we wait for you', 'she work here', 'I am knowing him'], r)}`,
  (r) => `${pick(['it', 'this', 'there'], r)} ${pick(['have', 'are', 'make'], r)} ${pick(['many', 'much', 'a lot'], r)} ${pick(['people', 'noise', 'rain', 'traffic', 'problems'], r)} ${pick(['in', 'on', 'at'], r)} ${pick(['the park', 'the weekend', 'my city', 'this morning'], r)}`,
]

/** A short everyday sentence with one or two learner or translation mistakes (mild gibberish). */
export function everydayMistake(random: Random): string {
  const wrong = random() < 0.6 ? pick(WRONG_VERB_FORMS, random)(random) : pick(WRONG_FUNCTION_WORDS, random)(random)
  const text = random() < 0.3 ? `${wrong}, ${statement(random)}` : wrong
  return finish(text, pick(['.', '!', '?', ''], random), random)
}
