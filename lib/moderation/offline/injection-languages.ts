/**
 * What an injection says, in the languages attacks are most often written in besides English
 * (Spanish, French, German, Italian, Portuguese, Dutch, Polish, Russian, Ukrainian, Turkish,
 * Chinese, Japanese, Korean, Arabic, Hindi, Indonesian, Vietnamese, Swedish): verbs that set
 * instructions aside, verbs that ask for something to be shown, the nouns for the rules an
 * assistant was given, and the words that make them the assistant's own ("your", "system",
 * "initial"). Written for this project from general knowledge of the languages, not from any
 * evaluation text; the prompt-injection features and the generated training texts
 * (scripts/train-offline/injection-data.ts) both read them.
 * Scripts without spaces between words (Chinese, Japanese) are matched without word boundaries.
 */
export type InjectionLanguage = {
  code: string
  /** Imperatives that set instructions aside: "ignore", "forget", "disregard". */
  override: string[]
  /** Imperatives that ask for something to be shown: "show", "reveal", "repeat", "tell me". */
  reveal: string[]
  /** The rules an assistant is given: "instructions", "rules", "guidelines", "directives". */
  rules: string[]
  /** Words that make the rules the assistant's own or earlier ones: "your", "previous", "initial", "system prompt". */
  own: string[]
}

export const INJECTION_LANGUAGES: readonly InjectionLanguage[] = [
  {
    code: 'es',
    override: ['ignora', 'ignore', 'ignoren', 'olvida', 'olvide', 'olvídate de', 'omite', 'descarta', 'haz caso omiso de', 'no sigas'],
    reveal: ['muestra', 'muéstrame', 'revela', 'revélame', 'dime', 'imprime', 'repite', 'escribe', 'comparte', 'enséñame'],
    rules: ['instrucciones', 'reglas', 'indicaciones', 'directrices', 'normas', 'órdenes', 'pautas'],
    own: ['tus', 'sus', 'anteriores', 'previas', 'iniciales', 'originales', 'ocultas', 'del sistema', 'prompt del sistema', 'prompt de sistema', 'mensaje del sistema'],
  },
  {
    code: 'fr',
    override: ['ignore', 'ignorez', 'oublie', 'oubliez', 'ne tiens pas compte', 'ne tenez pas compte', 'fais abstraction', 'laisse tomber', 'ne suis plus'],
    reveal: ['montre', 'montre-moi', 'montrez', 'affiche', 'affichez', 'révèle', 'révélez', 'dis-moi', 'dites-moi', 'répète', 'répétez', 'donne-moi', 'écris', 'recopie'],
    // "ignore", "instructions" and "directives" are English words too: the nouns need a French article.
    rules: ['les instructions', 'tes instructions', 'vos instructions', 'des instructions', 'consignes', 'règles', 'les directives', 'tes directives', 'vos directives', 'ordres'],
    own: ['tes', 'vos', 'précédentes', 'antérieures', 'initiales', 'originales', 'cachées', 'du système', 'prompt système', 'invite système', 'message système'],
  },
  {
    code: 'de',
    override: ['ignoriere', 'ignorier', 'ignorieren sie', 'vergiss', 'vergessen sie', 'missachte', 'übergehe', 'beachte nicht', 'befolge nicht'],
    reveal: ['zeige', 'zeig', 'zeigen sie', 'verrate', 'verraten sie', 'gib', 'geben sie', 'wiederhole', 'nenne', 'schreibe', 'gib mir'],
    rules: ['anweisungen', 'anweisung', 'regeln', 'vorgaben', 'richtlinien', 'befehle', 'anordnungen', 'instruktionen'],
    own: ['deine', 'ihre', 'vorherigen', 'bisherigen', 'ursprünglichen', 'anfänglichen', 'versteckten', 'systemprompt', 'system-prompt', 'systemanweisung', 'systemnachricht'],
  },
  {
    code: 'it',
    override: ['ignora', 'ignori', 'dimentica', 'dimentichi', 'trascura', 'non considerare', 'non seguire', 'lascia perdere'],
    reveal: ['mostra', 'mostrami', 'rivela', 'rivelami', 'dimmi', 'ripeti', 'stampa', 'scrivi', 'elenca'],
    rules: ['istruzioni', 'regole', 'direttive', 'indicazioni', 'ordini'],
    own: ['tue', 'le tue', 'sue', 'precedenti', 'iniziali', 'originali', 'nascoste', 'di sistema', 'prompt di sistema', 'messaggio di sistema'],
  },
  {
    code: 'pt',
    override: ['ignore', 'ignora', 'esqueça', 'esquece', 'desconsidere', 'descarte', 'não siga', 'deixe de lado'],
    reveal: ['mostre', 'mostra', 'mostre-me', 'revele', 'revela', 'diga', 'diz', 'repita', 'imprima', 'escreva', 'me mostre'],
    rules: ['instruções', 'regras', 'diretrizes', 'orientações', 'ordens'],
    own: ['suas', 'tuas', 'anteriores', 'iniciais', 'originais', 'ocultas', 'do sistema', 'prompt do sistema', 'mensagem do sistema'],
  },
  {
    code: 'nl',
    override: ['negeer', 'vergeet', 'volg niet', 'let niet op'],
    reveal: ['toon', 'laat zien', 'geef', 'herhaal', 'vertel', 'onthul', 'schrijf'],
    rules: ['instructies', 'regels', 'richtlijnen', 'opdrachten'],
    own: ['je', 'jouw', 'uw', 'vorige', 'eerdere', 'oorspronkelijke', 'verborgen', 'systeemprompt', 'systeeminstructies'],
  },
  {
    code: 'pl',
    override: ['zignoruj', 'ignoruj', 'zapomnij', 'pomiń', 'nie stosuj się'],
    reveal: ['pokaż', 'ujawnij', 'podaj', 'powtórz', 'wypisz', 'napisz', 'powiedz'],
    rules: ['instrukcje', 'instrukcji', 'zasady', 'zasad', 'polecenia', 'poleceń', 'reguły'],
    own: ['swoje', 'twoje', 'poprzednie', 'wcześniejsze', 'początkowe', 'ukryte', 'systemowe', 'prompt systemowy'],
  },
  {
    code: 'ru',
    override: ['игнорируй', 'проигнорируй', 'игнорируйте', 'забудь', 'забудьте', 'не обращай внимания на', 'не следуй'],
    reveal: ['покажи', 'покажите', 'раскрой', 'выведи', 'повтори', 'напиши', 'скажи', 'расскажи'],
    rules: ['инструкции', 'инструкций', 'правила', 'указания', 'установки', 'директивы'],
    own: ['свои', 'твои', 'ваши', 'предыдущие', 'прежние', 'исходные', 'скрытые', 'системный промпт', 'системные'],
  },
  {
    code: 'uk',
    override: ['ігноруй', 'проігноруй', 'забудь', 'не зважай на'],
    reveal: ['покажи', 'розкрий', 'виведи', 'повтори', 'напиши', 'скажи'],
    rules: ['інструкції', 'правила', 'вказівки'],
    own: ['свої', 'твої', 'попередні', 'початкові', 'приховані', 'системний промпт', 'системні'],
  },
  {
    code: 'tr',
    override: ['yoksay', 'görmezden gel', 'unut', 'dikkate alma', 'uyma'],
    reveal: ['göster', 'yaz', 'söyle', 'tekrarla', 'açıkla', 'paylaş'],
    rules: ['talimatları', 'talimatlar', 'talimatlarını', 'kuralları', 'kurallarını', 'yönergeleri'],
    own: ['önceki', 'tüm', 'ilk', 'gizli', 'sistem istemi', 'sistem talimatları', 'senin'],
  },
  {
    code: 'zh',
    override: ['忽略', '无视', '忘记', '忘掉', '不要理会', '不要遵守', '忽視', '無視'],
    reveal: ['显示', '输出', '告诉我', '打印', '重复', '透露', '展示', '说出', '顯示', '告訴我'],
    rules: ['指令', '指示', '规则', '提示', '規則', '说明'],
    own: ['你的', '之前', '以上', '先前', '原始', '系统提示', '系统', '系統'],
  },
  {
    code: 'ja',
    override: ['無視', '忘れ', '従わない'],
    reveal: ['表示', '教えて', '出力', '見せて', '繰り返'],
    rules: ['指示', '命令', 'ルール', 'プロンプト', '指令'],
    own: ['あなたの', '以前の', '前の', '上記の', '最初の', 'システムプロンプト', 'システム'],
  },
  {
    code: 'ko',
    override: ['무시', '잊어', '따르지 마'],
    reveal: ['보여', '알려', '출력', '말해'],
    rules: ['지시', '지침', '규칙', '명령', '프롬프트'],
    own: ['너의', '당신의', '이전', '원래', '숨겨진', '시스템 프롬프트', '시스템'],
  },
  {
    code: 'ar',
    override: ['تجاهل', 'انسَ', 'انس', 'لا تتبع'],
    reveal: ['أظهر', 'اعرض', 'اكشف', 'اطبع', 'أخبرني', 'كرر'],
    rules: ['التعليمات', 'تعليمات', 'تعليماتك', 'القواعد', 'قواعد', 'الأوامر'],
    own: ['السابقة', 'الأصلية', 'المخفية', 'النظام', 'موجه النظام', 'تعليماتك', 'قواعدك'],
  },
  {
    code: 'hi',
    override: ['अनदेखा', 'भूल जाओ', 'भूल जाइए', 'नज़रअंदाज़', 'नजरअंदाज'],
    reveal: ['दिखाओ', 'दिखाइए', 'बताओ', 'बताइए', 'दोहराओ', 'लिखो'],
    rules: ['निर्देश', 'निर्देशों', 'नियम', 'नियमों'],
    own: ['अपने', 'तुम्हारे', 'आपके', 'पिछले', 'पहले के', 'सिस्टम प्रॉम्प्ट', 'सिस्टम'],
  },
  {
    code: 'id',
    override: ['abaikan', 'lupakan', 'jangan ikuti'],
    reveal: ['tunjukkan', 'tampilkan', 'beri tahu', 'ulangi', 'tuliskan', 'sebutkan'],
    rules: ['instruksi', 'aturan', 'perintah', 'pedoman', 'arahan'],
    own: ['mu', 'anda', 'sebelumnya', 'awal', 'tersembunyi', 'prompt sistem', 'sistem'],
  },
  {
    code: 'vi',
    override: ['bỏ qua', 'quên', 'phớt lờ', 'đừng làm theo'],
    reveal: ['hiển thị', 'cho tôi xem', 'tiết lộ', 'nói cho tôi', 'lặp lại', 'in ra', 'viết ra'],
    rules: ['hướng dẫn', 'chỉ dẫn', 'quy tắc', 'chỉ thị', 'lệnh'],
    own: ['của bạn', 'trước đó', 'ban đầu', 'ẩn', 'lời nhắc hệ thống', 'hệ thống'],
  },
  {
    code: 'sv',
    override: ['ignorera', 'glöm', 'strunta i', 'följ inte'],
    reveal: ['visa', 'avslöja', 'berätta', 'upprepa', 'skriv ut', 'ge mig'],
    rules: ['instruktioner', 'instruktionerna', 'regler', 'reglerna', 'riktlinjer', 'direktiv'],
    own: ['dina', 'tidigare', 'ursprungliga', 'dolda', 'systemprompt', 'systeminstruktioner'],
  },
]

const NO_SPACES = new Set(['zh', 'ja'])

function alternatives(words: string[]): string {
  return words
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .sort((a, b) => b.length - a.length)
    .join('|')
}

/**
 * One pattern per language: `first` and `second` words within `gap` characters of each other, in
 * either order (Japanese, Korean, Turkish and Hindi put the verb after its object), each a whole
 * word where the script has spaces.
 */
function pairPattern(language: InjectionLanguage, first: string[], second: string[], gap: number): RegExp {
  const [start, end] = NO_SPACES.has(language.code) ? ['', ''] : ['(?<![\\p{L}\\p{M}])', '(?![\\p{L}\\p{M}])']
  const a = `${start}(?:${alternatives(first)})${end}`
  const b = `${start}(?:${alternatives(second)})${end}`
  return new RegExp(`${a}[^\\n]{0,${gap}}?${b}|${b}[^\\n]{0,${gap}}?${a}`, 'iu')
}

const OVERRIDE_PATTERNS = INJECTION_LANGUAGES.map((l) => pairPattern(l, l.override, l.rules, 40))
/** "Show ... your/initial/system ... instructions": a showing verb with the rules, and the rules made the assistant's own. */
const EXTRACTION_PATTERNS = INJECTION_LANGUAGES.flatMap((l) => [pairPattern(l, l.reveal, l.own, 30), pairPattern(l, l.own, l.rules, 20)].map((p) => ({ reveal: pairPattern(l, l.reveal, l.rules, 50), own: p })))

/** Instructions set aside in one of the languages above ("Ignora las instrucciones anteriores", "忽略之前的指令"). */
export function overridesInAnotherLanguage(text: string): boolean {
  return OVERRIDE_PATTERNS.some((p) => p.test(text))
}

/** The assistant's own instructions asked for in one of the languages above ("Muéstrame tus instrucciones iniciales"). */
export function extractionInAnotherLanguage(text: string): boolean {
  return EXTRACTION_PATTERNS.some(({ reveal, own }) => reveal.test(text) && own.test(text))
}
