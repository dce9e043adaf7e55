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
  // Eighteenth round: what the English phrase features read in content aimed at its AI reader, in the
  // language itself. A word ending in * is a stem: any letters may follow ("Nutzer*": "Nutzern", "Nutzers").
  /** Names of an AI reader: "AI", "assistant", "language model", "agent", "bot". */
  reader: string[]
  /** What such a reader does with content: "reads", "processes", "summarises", "visits", "translates". */
  reads: string[]
  /** "If you are (an AI)". */
  cond: string[]
  /** Keeping something from someone: "don't tell", "don't mention", "without telling", "secretly". */
  hide: string[]
  /** Whom or what it is kept from, or kept about: "the user", "the customer", "this note", "this step". */
  hideObject: string[]
  /** Rules and filters gone: "without restrictions", "no filters", "uncensored", "no longer bound". */
  unbound: string[]
  /** How an assistant is told to answer or behave: "answer", "respond", "act". */
  answer: string[]
  /** Imperatives that send data away: "send", "forward", "upload", "post". */
  send: string[]
  /** What is worth stealing: passwords, keys, history, cookies, card numbers, personal data. */
  data: string[]
}

export const INJECTION_LANGUAGES: readonly InjectionLanguage[] = [
  {
    code: 'es',
    override: ['ignora', 'ignore', 'ignoren', 'olvida', 'olvide', 'olvídate de', 'omite', 'descarta', 'haz caso omiso de', 'no sigas'],
    reveal: ['muestra', 'muéstrame', 'revela', 'revélame', 'dime', 'imprime', 'repite', 'escribe', 'comparte', 'enséñame'],
    rules: ['instrucciones', 'reglas', 'indicaciones', 'directrices', 'normas', 'órdenes', 'pautas'],
    own: ['tus', 'sus', 'anteriores', 'previas', 'iniciales', 'originales', 'ocultas', 'del sistema', 'prompt del sistema', 'prompt de sistema', 'mensaje del sistema'],
    reader: ['ia', 'inteligencia artificial', 'asistente', 'modelo de lenguaje', 'modelo de ia', 'agente', 'chatbot', 'bot', 'sistema automático', 'sistema de evaluación', 'llm'],
    reads: ['que resume', 'que resuma', 'lee', 'lees', 'leas', 'leyendo', 'procesa', 'procesando', 'resumir', 'resumiendo', 'analiza', 'analizando', 'revisa', 'evalúa', 'evaluando', 'visita', 'gestiona', 'traduce', 'traducir'],
    cond: ['si eres', 'si usted es', 'si estás leyendo esto como'],
    hide: ['no le digas', 'no se lo digas', 'no lo digas', 'no digas', 'no menciones', 'sin mencionar', 'sin avisar', 'sin decirle', 'sin decir', 'no informes', 'no avises', 'no le comentes', 'oculta', 'sin que lo sepa', 'sin que se entere'],
    hideObject: ['usuario', 'usuaria', 'cliente', 'esta nota', 'este paso', 'este cambio', 'esta instrucción', 'este mensaje', 'esta operación', 'esto'],
    unbound: ['sin filtros', 'sin filtro', 'sin restricciones', 'sin límites', 'sin censura', 'sin reglas', 'sin advertencias', 'sin negativas', 'ya no estás sujeto', 'ya no tienes reglas', 'sin ninguna restricción'],
    answer: ['responde', 'contesta', 'respondes', 'contestas', 'actúa'],
    send: ['envía', 'envíe', 'envíale', 'reenvía', 'reenvíe', 'manda', 'mande', 'sube', 'adjunta', 'publica', 'copia'],
    data: ['contraseña', 'contraseñas', 'claves', 'clave api', 'historial', 'conversación', 'cookies', 'tarjeta', 'datos personales', 'credenciales', 'correos', 'documentos', 'dni', 'número de teléfono'],
  },
  {
    code: 'fr',
    override: ['ignore', 'ignorez', 'oublie', 'oubliez', 'ne tiens pas compte', 'ne tenez pas compte', 'fais abstraction', 'laisse tomber', 'ne suis plus'],
    reveal: ['montre', 'montre-moi', 'montrez', 'affiche', 'affichez', 'révèle', 'révélez', 'dis-moi', 'dites-moi', 'répète', 'répétez', 'donne-moi', 'écris', 'recopie'],
    // "ignore", "instructions" and "directives" are English words too: the nouns need a French article.
    rules: ['les instructions', 'tes instructions', 'vos instructions', 'des instructions', 'consignes', 'règles', 'les directives', 'tes directives', 'vos directives', 'ordres'],
    own: ['tes', 'vos', 'précédentes', 'antérieures', 'initiales', 'originales', 'cachées', 'du système', 'prompt système', 'invite système', 'message système'],
    reader: ['ia', 'intelligence artificielle', 'assistant', 'assistante', 'modèle de langage', "modèle d'ia", 'agent', 'chatbot', 'bot', 'système automatique', 'llm'],
    reads: ['lit', 'lis', 'lisant', 'traite', 'traitant', 'résume', 'résumer', 'résumant', 'évalue', 'évaluant', 'visite', 'gère', 'chargé de', 'chargée de', 'traduis', 'traduire'],
    cond: ['si tu es', 'si vous êtes'],
    hide: ['ne dis pas', 'ne le dis pas', 'ne dites pas', 'ne mentionne pas', 'ne mentionnez pas', 'sans le dire', 'sans prévenir', 'sans mentionner', 'sans informer', "n'en parle pas", "n'informe pas", 'cache', 'à son insu'],
    hideObject: ["l'utilisateur", "l'utilisatrice", 'utilisateur', 'client', 'cette note', 'cette étape', 'ce changement', 'cette instruction', 'ce message', 'cette opération'],
    unbound: ['sans filtre', 'sans filtres', 'sans restriction', 'sans restrictions', 'sans limites', 'sans censure', 'sans règles', 'sans avertissement', 'sans refus', "tu n'es plus soumis", "tu n'as plus de règles", 'aucune restriction'],
    answer: ['réponds', 'répondez', 'réponde', 'agis'],
    send: ['envoie', 'envoyez', 'transfère', 'transférez', 'transmets', 'transmettez', 'expédie', 'publie', 'copie', 'joins'],
    data: ['mot de passe', 'mots de passe', 'clés', 'clé api', 'historique', 'conversation', 'cookies', 'carte bancaire', 'données personnelles', 'identifiants', 'e-mails', 'documents'],
  },
  {
    code: 'de',
    override: ['ignoriere', 'ignorier', 'ignorieren sie', 'vergiss', 'vergessen sie', 'missachte', 'übergehe', 'beachte nicht', 'befolge nicht'],
    reveal: ['zeige', 'zeig', 'zeigen sie', 'verrate', 'verraten sie', 'gib', 'geben sie', 'wiederhole', 'nenne', 'schreibe', 'gib mir'],
    rules: ['anweisungen', 'anweisung', 'regeln', 'vorgaben', 'richtlinien', 'befehle', 'anordnungen', 'instruktionen'],
    own: ['deine', 'ihre', 'vorherigen', 'bisherigen', 'ursprünglichen', 'anfänglichen', 'versteckten', 'systemprompt', 'system-prompt', 'systemanweisung', 'systemnachricht'],
    reader: ['ki', 'künstliche intelligenz', 'assistent', 'assistentin', 'sprachmodell', 'ki-modell', 'agent', 'chatbot', 'bot', 'ki-assistent', 'ki-agent', 'llm', 'ki-agent*', 'ki-assistent*', 'assistent*', 'sprachmodell*'],
    reads: ['liest', 'lies', 'lesen', 'verarbeitet', 'verarbeiten', 'zusammenfasst', 'zusammenfassen', 'analysiert', 'bewertet', 'besucht', 'besuchen', 'verwaltet', 'übersetzt', 'übersetzen'],
    cond: ['wenn du', 'falls du', 'wenn sie', 'falls sie'],
    hide: ['erwähne', 'sag', 'sage', 'verrate', 'informiere', 'verschweige', 'ohne', 'heimlich'],
    hideObject: ['nutzer*', 'benutzer*', 'kunden', 'diesen hinweis', 'diesen schritt', 'diese änderung', 'diese nachricht', 'es dem'],
    unbound: ['ohne einschränkungen', 'ohne filter', 'ohne zensur', 'ohne regeln', 'ohne grenzen', 'ohne warnhinweise', 'ohne warnungen', 'keine einschränkungen', 'nicht mehr an', 'uneingeschränkt'],
    answer: ['beantworte', 'antworte', 'antwortest', 'verhalte'],
    send: ['sende', 'schicke', 'schick', 'leite', 'übermittle', 'lade', 'poste', 'kopiere', 'rufe'],
    data: ['passwort', 'passwörter', 'schlüssel', 'api-schlüssel', 'verlauf', 'browserverlauf', 'unterhaltung', 'cookies', 'kreditkarte', 'persönlichen daten', 'zugangsdaten', 'e-mails', 'dokumente'],
  },
  {
    code: 'it',
    override: ['ignora', 'ignori', 'dimentica', 'dimentichi', 'trascura', 'non considerare', 'non seguire', 'lascia perdere'],
    reveal: ['mostra', 'mostrami', 'rivela', 'rivelami', 'dimmi', 'ripeti', 'stampa', 'scrivi', 'elenca'],
    rules: ['istruzioni', 'regole', 'direttive', 'indicazioni', 'ordini'],
    own: ['tue', 'le tue', 'sue', 'precedenti', 'iniziali', 'originali', 'nascoste', 'di sistema', 'prompt di sistema', 'messaggio di sistema'],
    reader: ['ia', 'intelligenza artificiale', 'assistente', 'modello linguistico', 'modello di linguaggio', 'agente', 'chatbot', 'bot', 'sistema automatico', 'llm'],
    reads: ['legge', 'leggi', 'elabora', 'elaborando', 'riassume', 'riassumere', 'analizza', 'valuta', 'visita', 'gestisce', 'traduce', 'tradurre'],
    cond: ['se sei', 'se tu sei'],
    hide: ['non dire', 'non dirlo', 'non menzionare', 'senza dire', 'senza avvisare', 'senza menzionare', 'non informare', 'non avvisare', 'nascondi', "all'insaputa"],
    hideObject: ["all'utente", "l'utente", 'utente', 'cliente', 'questa nota', 'questo passaggio', 'questa modifica', 'questo messaggio', 'questa istruzione'],
    unbound: ['senza filtri', 'senza restrizioni', 'senza limiti', 'senza censura', 'senza regole', 'senza avvertenze', 'senza rifiuti', 'non sei più vincolato', 'nessuna restrizione'],
    answer: ['rispondi', 'rispondere', 'agisci'],
    send: ['invia', 'inoltra', 'manda', 'trasmetti', 'carica', 'pubblica', 'copia', 'allega'],
    data: ['password', 'chiavi', 'chiave api', 'cronologia', 'conversazione', 'cookie', 'carta di credito', 'dati personali', 'credenziali', 'email', 'documenti'],
  },
  {
    code: 'pt',
    override: ['ignore', 'ignora', 'esqueça', 'esquece', 'desconsidere', 'descarte', 'não siga', 'deixe de lado'],
    reveal: ['mostre', 'mostra', 'mostre-me', 'revele', 'revela', 'diga', 'diz', 'repita', 'imprima', 'escreva', 'me mostre'],
    rules: ['instruções', 'regras', 'diretrizes', 'orientações', 'ordens'],
    own: ['suas', 'tuas', 'anteriores', 'iniciais', 'originais', 'ocultas', 'do sistema', 'prompt do sistema', 'mensagem do sistema'],
    reader: ['ia', 'inteligência artificial', 'assistente', 'modelo de linguagem', 'modelo de ia', 'agente', 'chatbot', 'bot', 'sistema automático', 'llm'],
    reads: ['que resume', 'que resuma', 'lê', 'lendo', 'processa', 'processando', 'resumir', 'resumindo', 'analisa', 'avalia', 'visita', 'gerencia', 'traduz', 'traduzir'],
    cond: ['se você é', 'se você for', 'se és', 'se tu és'],
    hide: ['não diga', 'não conte', 'não mencione', 'sem avisar', 'sem dizer', 'sem mencionar', 'sem informar', 'não informe', 'não avise', 'esconda', 'oculte'],
    hideObject: ['usuário', 'usuária', 'utilizador', 'cliente', 'esta nota', 'este passo', 'esta mudança', 'esta instrução', 'esta mensagem', 'esta operação'],
    unbound: ['sem filtros', 'sem filtro', 'sem restrições', 'sem limites', 'sem censura', 'sem regras', 'sem avisos', 'sem recusas', 'não está mais sujeito', 'nenhuma restrição'],
    answer: ['responda', 'responde', 'respondes', 'aja'],
    send: ['envie', 'envia', 'encaminhe', 'encaminha', 'mande', 'manda', 'transmita', 'publique', 'copie', 'anexe'],
    data: ['senha', 'senhas', 'chaves', 'chave de api', 'histórico', 'conversa', 'cookies', 'cartão', 'dados pessoais', 'credenciais', 'e-mails', 'documentos', 'cpf'],
  },
  {
    code: 'nl',
    override: ['negeer', 'vergeet', 'volg niet', 'let niet op'],
    reveal: ['toon', 'laat zien', 'geef', 'herhaal', 'vertel', 'onthul', 'schrijf'],
    rules: ['instructies', 'regels', 'richtlijnen', 'opdrachten'],
    own: ['je', 'jouw', 'uw', 'vorige', 'eerdere', 'oorspronkelijke', 'verborgen', 'systeemprompt', 'systeeminstructies'],
    reader: ['ai', 'kunstmatige intelligentie', 'assistent', 'taalmodel', 'ai-model', 'agent', 'chatbot', 'bot', 'ai-assistent', 'llm', 'ai-assistent*'],
    reads: ['leest', 'lees', 'verwerkt', 'samenvat', 'samenvatten', 'analyseert', 'beoordeelt', 'bezoekt', 'behandelt', 'beheert', 'vertaalt'],
    cond: ['als je', 'als u'],
    hide: ['vertel', 'zeg', 'vermeld', 'noem', 'zonder', 'verberg', 'stilletjes'],
    hideObject: ['gebruiker', 'klant', 'deze notitie', 'deze stap', 'deze wijziging', 'dit bericht'],
    unbound: ['zonder filters', 'zonder beperkingen', 'zonder grenzen', 'zonder censuur', 'zonder regels', 'zonder waarschuwingen', 'niet langer gebonden', 'geen beperkingen'],
    answer: ['beantwoord', 'antwoord', 'gedraag'],
    send: ['stuur', 'verstuur', 'zend', 'stuur door', 'upload', 'plaats', 'kopieer'],
    data: ['wachtwoord', 'wachtwoorden', 'sleutels', 'api-sleutel', 'geschiedenis', 'gesprek', 'cookies', 'creditcard', 'persoonsgegevens', 'inloggegevens', 'e-mails', 'documenten', 'bsn'],
  },
  {
    code: 'pl',
    override: ['zignoruj', 'ignoruj', 'zapomnij', 'pomiń', 'nie stosuj się'],
    reveal: ['pokaż', 'ujawnij', 'podaj', 'powtórz', 'wypisz', 'napisz', 'powiedz'],
    rules: ['instrukcje', 'instrukcji', 'zasady', 'zasad', 'polecenia', 'poleceń', 'reguły'],
    own: ['swoje', 'twoje', 'poprzednie', 'wcześniejsze', 'początkowe', 'ukryte', 'systemowe', 'prompt systemowy'],
    reader: ['ai', 'si', 'sztuczna inteligencja', 'sztucznej inteligencji', 'asystent', 'asystencie', 'model językowy', 'agent', 'agencie', 'chatbot', 'bot', 'llm'],
    reads: ['czyta', 'czytasz', 'czytający', 'przetwarza', 'przetwarzasz', 'streszcza', 'podsumowuje', 'analizuje', 'ocenia', 'odwiedza', 'obsługuje', 'tłumaczy'],
    cond: ['jeśli jesteś', 'jeżeli jesteś'],
    hide: ['nie mów', 'nie wspominaj', 'nie informuj', 'bez informowania', 'bez wiedzy', 'ukryj', 'po cichu'],
    hideObject: ['użytkowni*', 'klient*', 'tej notatce', 'tej zmianie', 'tym kroku', 'tej wiadomości'],
    unbound: ['bez ograniczeń', 'bez filtrów', 'bez cenzury', 'bez zasad', 'bez ostrzeżeń', 'bez odmów', 'nie obowiązują cię', 'żadnych ograniczeń'],
    answer: ['odpowiadaj', 'odpowiedz', 'odpowiadasz', 'zachowuj'],
    send: ['wyślij', 'prześlij', 'przekaż', 'wrzuć', 'opublikuj', 'skopiuj', 'dołącz'],
    data: ['hasło', 'hasła', 'klucze', 'klucz api', 'historię', 'rozmowę', 'ciasteczka', 'kartę', 'dane osobowe', 'dane logowania', 'e-maile', 'dokumenty', 'pesel'],
  },
  {
    code: 'ru',
    override: ['игнорируй', 'проигнорируй', 'игнорируйте', 'забудь', 'забудьте', 'не обращай внимания на', 'не следуй'],
    reveal: ['покажи', 'покажите', 'раскрой', 'выведи', 'повтори', 'напиши', 'скажи', 'расскажи'],
    rules: ['инструкции', 'инструкций', 'правила', 'указания', 'установки', 'директивы'],
    own: ['свои', 'твои', 'ваши', 'предыдущие', 'прежние', 'исходные', 'скрытые', 'системный промпт', 'системные'],
    reader: ['ии', 'искусственный интеллект', 'ассистент', 'ассистенту', 'помощник', 'помощнику', 'языковая модель', 'языковой модели', 'нейросеть', 'агент', 'агенту', 'бот', 'чат-бот', 'llm'],
    reads: ['читает', 'читаешь', 'читающ*', 'обрабатывает', 'обрабатываешь', 'обрабатывающ*', 'пересказывает', 'резюмирует', 'анализирует', 'оценивает', 'посещает'],
    cond: ['если ты', 'если вы'],
    hide: ['не говори', 'не сообщай', 'не упоминай', 'не рассказывай', 'не предупреждай', 'без ведома', 'тайно', 'незаметно', 'скрой'],
    hideObject: ['пользовател*', 'клиент*', 'об этом', 'эту заметку', 'этот шаг', 'это изменение', 'это сообщение'],
    unbound: ['без ограничений', 'без фильтров', 'без цензуры', 'без правил', 'без предупреждений', 'без отказов', 'больше не действу', 'больше не связан', 'никаких ограничений'],
    answer: ['отвечай', 'ответь', 'отвечаешь', 'веди себя'],
    send: ['отправь', 'отправьте', 'перешли', 'перешлите', 'пришли', 'загрузи', 'опубликуй', 'скопируй', 'передай'],
    data: ['пароль', 'пароли', 'ключи', 'api-ключ', 'историю', 'переписку', 'cookie', 'куки', 'карты', 'персональные данные', 'учётные данные', 'письма', 'документы', 'переменные окружения'],
  },
  {
    code: 'uk',
    override: ['ігноруй', 'проігноруй', 'забудь', 'не зважай на'],
    reveal: ['покажи', 'розкрий', 'виведи', 'повтори', 'напиши', 'скажи'],
    rules: ['інструкції', 'правила', 'вказівки'],
    own: ['свої', 'твої', 'попередні', 'початкові', 'приховані', 'системний промпт', 'системні'],
    reader: ['ші', 'штучний інтелект', 'асистент', 'асистенте', 'помічник', 'помічнику', 'мовна модель', 'агент', 'агенте', 'бот', 'чат-бот', 'llm'],
    reads: ['читає', 'читаєш', 'обробляє', 'аналізує', 'оцінює', 'відвідує', 'підсумовує'],
    cond: ['якщо ти', 'якщо ви'],
    hide: ['не кажи', 'не повідомляй', 'не згадуй', 'не розповідай', 'без відома', 'таємно', 'приховай'],
    hideObject: ['користувач*', 'клієнт*', 'про це', 'цю нотатку', 'цей крок', 'цю зміну', 'це повідомлення'],
    unbound: ['без обмежень', 'без фільтрів', 'без цензури', 'без правил', 'без попереджень', 'більше не діють', 'жодних обмежень'],
    answer: ['відповідай', 'відповідаєш', 'поводься'],
    send: ['надішли', 'надішліть', 'перешли', 'відправ', 'завантаж', 'опублікуй', 'скопіюй', 'передай'],
    data: ['пароль', 'паролі', 'ключі', 'історію', 'листування', 'cookie', 'картки', 'персональні дані', 'облікові дані', 'листи', 'документи'],
  },
  {
    code: 'tr',
    override: ['yoksay', 'görmezden gel', 'unut', 'dikkate alma', 'uyma'],
    reveal: ['göster', 'yaz', 'söyle', 'tekrarla', 'açıkla', 'paylaş'],
    rules: ['talimatları', 'talimatlar', 'talimatlarını', 'kuralları', 'kurallarını', 'yönergeleri'],
    own: ['önceki', 'tüm', 'ilk', 'gizli', 'sistem istemi', 'sistem talimatları', 'senin'],
    reader: ['yapay zeka', 'yapay zekâ', 'asistan', 'dil modeli', 'ajan', 'sohbet botu', 'bot', 'llm'],
    reads: ['okuyan', 'okuyorsan', 'işleyen', 'özetleyen', 'özetlerken', 'değerlendiren', 'analiz eden', 'ziyaret eden'],
    cond: ['eğer bir', 'eğer sen'],
    hide: ['söyleme', 'bahsetme', 'haber verme', 'bildirme', 'fark ettirmeden', 'habersiz', 'gizlice', 'sakla'],
    hideObject: ['kullanıcı', 'müşteri', 'bu not', 'bu adım', 'bu değişiklik', 'bu mesaj'],
    unbound: ['kısıtlama olmadan', 'kısıtlamasız', 'filtresiz', 'filtre olmadan', 'sansürsüz', 'sınırsız', 'kuralsız', 'uyarı olmadan', 'hiçbir kısıtlama'],
    answer: ['cevap ver', 'yanıtla', 'yanıt ver', 'davran'],
    send: ['gönder', 'ilet', 'yolla', 'yükle', 'paylaş', 'kopyala'],
    data: ['şifre', 'parola', 'anahtar', 'api anahtarı', 'geçmiş', 'sohbet', 'çerez', 'kredi kartı', 'kişisel veri', 'kimlik bilgileri', 'e-posta', 'belgeler', 'tc kimlik'],
  },
  {
    code: 'zh',
    override: ['忽略', '无视', '忘记', '忘掉', '不要理会', '不要遵守', '忽視', '無視'],
    reveal: ['显示', '输出', '告诉我', '打印', '重复', '透露', '展示', '说出', '顯示', '告訴我'],
    rules: ['指令', '指示', '规则', '提示', '規則', '说明'],
    own: ['你的', '之前', '以上', '先前', '原始', '系统提示', '系统', '系統'],
    reader: ['ai', '人工智能', '助手', '助理', '语言模型', '語言模型', '大模型', '智能体', '代理', '机器人', '機器人', 'llm'],
    reads: ['阅读', '读取', '处理', '总结', '概括', '摘要', '分析', '评估', '浏览', '翻译', '閱讀', '處理'],
    cond: ['如果你是', '如果您是', '假如你是'],
    hide: ['不要告诉', '不要告訴', '不要提及', '不要提到', '不要通知', '不要让', '不要讓', '悄悄', '偷偷', '瞒着', '隐瞒'],
    hideObject: ['用户', '用戶', '使用者', '客户', '客戶', '这条', '此条', '这个操作', '此操作', '这一步', '这条说明', '此说明'],
    unbound: ['没有限制', '沒有限制', '无限制', '無限制', '不受限制', '不受任何限制', '没有任何限制', '无任何限制', '没有过滤', '无过滤', '无审查', '無審查', '不受约束', '没有规则', '不再受'],
    answer: ['回答', '回复', '扮演', '作为'],
    send: ['发送', '發送', '发给', '發給', '转发', '轉發', '上传', '上傳', '拼接到', '附加到', '提交到'],
    data: ['密码', '密碼', '密钥', '密鑰', 'api密钥', '历史', '歷史', '对话记录', '聊天记录', 'cookie', '信用卡', '身份证', '身份證', '手机号', '住址', '个人信息', '凭证', '邮件', '文件'],
  },
  {
    code: 'ja',
    override: ['無視', '忘れ', '従わない'],
    reveal: ['表示', '教えて', '出力', '見せて', '繰り返'],
    rules: ['指示', '命令', 'ルール', 'プロンプト', '指令'],
    own: ['あなたの', '以前の', '前の', '上記の', '最初の', 'システムプロンプト', 'システム'],
    reader: ['ai', '人工知能', 'アシスタント', '言語モデル', 'エージェント', 'チャットボット', 'ボット', 'llm'],
    reads: ['読む', '読んで', '処理する', '要約する', '要約', '分析する', '評価する', '閲覧する', '翻訳する'],
    cond: ['あなたがai', 'もしあなたが', 'aiであれば', 'aiなら'],
    hide: ['伝えないで', '言わないで', '触れないで', '知らせないで', '言及しない', '伝えずに', '知らせずに', 'こっそり', '内緒で', '隠して'],
    hideObject: ['ユーザー', '利用者', 'お客様', 'この注記', 'このメモ', 'この手順', 'この変更', 'このメッセージ', '送信', 'こと'],
    unbound: ['制限のない', '制限なし', '制限なく', '制約のない', '制約なし', 'フィルターなし', 'フィルターのない', '検閲なし', '検閲のない', 'ルールのない', '無制限', '無効になりました'],
    answer: ['答えて', '回答', '振る舞', '応答'],
    send: ['送信', '送って', '転送', 'アップロード', '投稿', 'コピーして'],
    data: ['パスワード', 'キー', 'apiキー', '履歴', '会話', 'クッキー', 'クレジットカード', 'カード番号', '個人情報', '認証情報', 'メール', '書類', 'マイナンバー'],
  },
  {
    code: 'ko',
    override: ['무시', '잊어', '따르지 마'],
    reveal: ['보여', '알려', '출력', '말해'],
    rules: ['지시', '지침', '규칙', '명령', '프롬프트'],
    own: ['너의', '당신의', '이전', '원래', '숨겨진', '시스템 프롬프트', '시스템'],
    reader: ['ai', '인공지능', '어시스턴트', '비서', '언어 모델', '에이전트', '챗봇', '봇', 'llm'],
    reads: ['읽는', '처리하는', '요약하는', '분석하는', '평가하는', '방문하는', '번역하는'],
    cond: ['당신이 ai', '만약 당신이', '네가 ai', 'ai라면'],
    hide: ['알리지 마', '말하지 마', '언급하지 마', '알리지 말', '말하지 말', '언급하지 말', '몰래', '숨기'],
    hideObject: ['사용자', '고객', '이 메모', '이 단계', '이 변경', '이 메시지'],
    unbound: ['제한 없이', '제한이 없는', '필터 없이', '검열 없이', '규칙 없이', '경고 없이', '제약 없이', '무제한'],
    answer: ['대답', '답변', '행동'],
    send: ['보내', '전송', '전달', '업로드', '게시', '복사'],
    data: ['비밀번호', '키', 'api 키', '기록', '대화', '쿠키', '카드 번호', '신용카드', '개인정보', '자격 증명', '이메일', '문서', '주민등록번호'],
  },
  {
    code: 'ar',
    override: ['تجاهل', 'انسَ', 'انس', 'لا تتبع'],
    reveal: ['أظهر', 'اعرض', 'اكشف', 'اطبع', 'أخبرني', 'كرر'],
    rules: ['التعليمات', 'تعليمات', 'تعليماتك', 'القواعد', 'قواعد', 'الأوامر'],
    own: ['السابقة', 'الأصلية', 'المخفية', 'النظام', 'موجه النظام', 'تعليماتك', 'قواعدك'],
    reader: ['الذكاء الاصطناعي', 'ذكاء اصطناعي', 'المساعد', 'مساعد', 'النموذج اللغوي', 'نموذج لغوي', 'الوكيل', 'وكيل', 'روبوت', 'بوت', 'llm'],
    reads: ['يقرأ', 'تقرأ', 'يعالج', 'تعالج', 'يلخص', 'تلخص', 'يحلل', 'يقيّم', 'يزور'],
    cond: ['إذا كنت', 'اذا كنت', 'أيها'],
    hide: ['لا تخبر', 'لا تذكر', 'لا تبلغ', 'دون إخبار', 'دون علم', 'بدون إخبار', 'سرا', 'سراً', 'أخف'],
    hideObject: ['المستخدم', 'العميل', 'بذلك', 'هذه الملاحظة', 'هذه الخطوة', 'هذا التغيير', 'هذه الرسالة'],
    unbound: ['بدون قيود', 'دون قيود', 'بلا قيود', 'بدون فلاتر', 'بدون رقابة', 'بلا رقابة', 'بدون قواعد', 'بدون تحذيرات', 'لم تعد ملزما', 'لم تعد ملزماً'],
    answer: ['أجب', 'اجب', 'تصرف'],
    send: ['أرسل', 'ارسل', 'حوّل', 'حول', 'انشر', 'ارفع', 'انسخ'],
    data: ['كلمة المرور', 'كلمات المرور', 'المفاتيح', 'مفتاح', 'سجل', 'المحادثة', 'ملفات تعريف الارتباط', 'البطاقة', 'البيانات الشخصية', 'بيانات الاعتماد', 'الرسائل', 'المستندات'],
  },
  {
    code: 'hi',
    override: ['अनदेखा', 'भूल जाओ', 'भूल जाइए', 'नज़रअंदाज़', 'नजरअंदाज'],
    reveal: ['दिखाओ', 'दिखाइए', 'बताओ', 'बताइए', 'दोहराओ', 'लिखो'],
    rules: ['निर्देश', 'निर्देशों', 'नियम', 'नियमों'],
    own: ['अपने', 'तुम्हारे', 'आपके', 'पिछले', 'पहले के', 'सिस्टम प्रॉम्प्ट', 'सिस्टम'],
    reader: ['एआई', 'ai', 'कृत्रिम बुद्धिमत्ता', 'सहायक', 'असिस्टेंट', 'भाषा मॉडल', 'एजेंट', 'चैटबॉट', 'बॉट'],
    reads: ['पढ़ रहे', 'पढ़ने वाले', 'संसाधित', 'सारांश', 'विश्लेषण', 'मूल्यांकन'],
    cond: ['अगर आप', 'अगर तुम', 'यदि आप'],
    hide: ['मत बताना', 'मत बताओ', 'न बताएं', 'ज़िक्र मत', 'जिक्र मत', 'बिना बताए', 'चुपचाप', 'छिपा'],
    hideObject: ['उपयोगकर्ता', 'यूज़र', 'यूजर', 'ग्राहक', 'इस नोट', 'इस कदम', 'इस बदलाव', 'इस संदेश'],
    unbound: ['बिना किसी प्रतिबंध', 'बिना प्रतिबंध', 'बिना फ़िल्टर', 'बिना फिल्टर', 'बिना सेंसर', 'बिना नियम', 'बिना चेतावनी', 'कोई प्रतिबंध नहीं', 'कोई नियम नहीं'],
    answer: ['जवाब', 'उत्तर'],
    send: ['भेजो', 'भेजें', 'भेज दो', 'फॉरवर्ड', 'अपलोड', 'पोस्ट', 'कॉपी'],
    data: ['पासवर्ड', 'कुंजी', 'एपीआई कुंजी', 'इतिहास', 'बातचीत', 'कुकीज़', 'कार्ड', 'निजी जानकारी', 'क्रेडेंशियल', 'ईमेल', 'दस्तावेज़', 'आधार'],
  },
  {
    code: 'id',
    override: ['abaikan', 'lupakan', 'jangan ikuti'],
    reveal: ['tunjukkan', 'tampilkan', 'beri tahu', 'ulangi', 'tuliskan', 'sebutkan'],
    rules: ['instruksi', 'aturan', 'perintah', 'pedoman', 'arahan'],
    own: ['mu', 'anda', 'sebelumnya', 'awal', 'tersembunyi', 'prompt sistem', 'sistem'],
    reader: ['ai', 'kecerdasan buatan', 'asisten', 'model bahasa', 'agen', 'chatbot', 'bot', 'llm'],
    reads: ['membaca', 'memproses', 'meringkas', 'merangkum', 'menganalisis', 'menilai', 'mengunjungi', 'menangani'],
    cond: ['jika kamu', 'jika anda', 'kalau kamu', 'kalau anda'],
    hide: ['jangan beri tahu', 'jangan beritahu', 'jangan sebutkan', 'jangan memberi tahu', 'tanpa memberi tahu', 'tanpa sepengetahuan', 'diam-diam', 'sembunyikan'],
    hideObject: ['pengguna', 'pelanggan', 'catatan ini', 'langkah ini', 'perubahan ini', 'pesan ini'],
    unbound: ['tanpa batasan', 'tanpa filter', 'tanpa sensor', 'tanpa aturan', 'tanpa peringatan', 'tidak lagi terikat', 'tidak ada batasan'],
    answer: ['jawab', 'jawablah', 'bertindak'],
    send: ['kirim', 'kirimkan', 'teruskan', 'unggah', 'posting', 'salin'],
    data: ['kata sandi', 'kunci', 'kunci api', 'riwayat', 'percakapan', 'cookie', 'kartu kredit', 'data pribadi', 'kredensial', 'email', 'dokumen', 'nik'],
  },
  {
    code: 'vi',
    override: ['bỏ qua', 'quên', 'phớt lờ', 'đừng làm theo'],
    reveal: ['hiển thị', 'cho tôi xem', 'tiết lộ', 'nói cho tôi', 'lặp lại', 'in ra', 'viết ra'],
    rules: ['hướng dẫn', 'chỉ dẫn', 'quy tắc', 'chỉ thị', 'lệnh'],
    own: ['của bạn', 'trước đó', 'ban đầu', 'ẩn', 'lời nhắc hệ thống', 'hệ thống'],
    reader: ['ai', 'trí tuệ nhân tạo', 'trợ lý', 'mô hình ngôn ngữ', 'tác tử', 'chatbot', 'bot', 'llm'],
    reads: ['đọc', 'xử lý', 'tóm tắt', 'phân tích', 'đánh giá', 'truy cập', 'sửa lỗi'],
    cond: ['nếu bạn là', 'nếu bạn đang'],
    hide: ['đừng nói', 'đừng nhắc', 'đừng báo', 'không được nói', 'không nhắc', 'mà không báo', 'lặng lẽ', 'âm thầm', 'giấu'],
    hideObject: ['người dùng', 'khách hàng', 'ghi chú này', 'bước này', 'thay đổi đó', 'thay đổi này', 'tin nhắn này'],
    unbound: ['không giới hạn', 'không có giới hạn', 'không bị giới hạn', 'không bộ lọc', 'không kiểm duyệt', 'không có quy tắc', 'không cảnh báo', 'không còn bị ràng buộc'],
    answer: ['trả lời', 'hành động'],
    send: ['gửi', 'chuyển tiếp', 'tải lên', 'đăng', 'sao chép', 'thêm lệnh'],
    data: ['mật khẩu', 'khóa', 'khóa api', 'lịch sử', 'cuộc trò chuyện', 'cookie', 'thẻ tín dụng', 'dữ liệu cá nhân', 'thông tin đăng nhập', 'email', 'tài liệu', 'cccd'],
  },
  {
    code: 'sv',
    override: ['ignorera', 'glöm', 'strunta i', 'följ inte'],
    reveal: ['visa', 'avslöja', 'berätta', 'upprepa', 'skriv ut', 'ge mig'],
    rules: ['instruktioner', 'instruktionerna', 'regler', 'reglerna', 'riktlinjer', 'direktiv'],
    own: ['dina', 'tidigare', 'ursprungliga', 'dolda', 'systemprompt', 'systeminstruktioner'],
    reader: ['ai', 'artificiell intelligens', 'assistent', 'språkmodell', 'ai-modell', 'agent', 'chattbot', 'bot', 'llm'],
    reads: ['läser', 'bearbetar', 'sammanfattar', 'analyserar', 'bedömer', 'besöker', 'hanterar'],
    cond: ['om du är', 'ifall du är'],
    hide: ['berätta inte', 'nämn inte', 'säg inte', 'informera inte', 'utan att berätta', 'utan att nämna', 'i hemlighet', 'dölj'],
    hideObject: ['användaren', 'kunden', 'denna anteckning', 'detta steg', 'denna ändring', 'detta meddelande', 'det'],
    unbound: ['utan begränsningar', 'utan filter', 'utan censur', 'utan regler', 'utan varningar', 'inte längre bunden', 'inga begränsningar'],
    answer: ['svara', 'svarar', 'agera'],
    send: ['skicka', 'vidarebefordra', 'ladda upp', 'publicera', 'kopiera'],
    data: ['lösenord', 'nycklar', 'api-nyckel', 'historik', 'konversation', 'kakor', 'kreditkort', 'personuppgifter', 'inloggningsuppgifter', 'e-post', 'dokument', 'personnummer'],
  },
]

const NO_SPACES = new Set(['zh', 'ja'])

function alternatives(words: string[]): string {
  return words
    .map((w) => (w.endsWith('*') ? `${escaped(w.slice(0, -1))}[\\p{L}\\p{M}]*` : escaped(w)))
    .sort((a, b) => b.length - a.length)
    .join('|')
}

function escaped(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
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

/** Any of `words` as a whole word (within text where the script has no spaces). */
function wordPattern(language: InjectionLanguage, words: string[]): RegExp {
  const [start, end] = NO_SPACES.has(language.code) ? ['', ''] : ['(?<![\\p{L}\\p{M}])', '(?![\\p{L}\\p{M}])']
  return new RegExp(`${start}(?:${alternatives(words)})${end}`, 'iu')
}

/** A web address or an e-mail address: where stolen data would go. */
const DESTINATION = /\bhttps?:\/\/\S|\bwww\.\S|[\w.+-]+@[\w-]+\.[\w.-]+/iu

const READER_PATTERNS = INJECTION_LANGUAGES.map((l) => ({
  /** The reader named with what it does to the content ("l'assistente IA che legge questa pagina", "このドキュメントを要約するAI"). */
  reading: pairPattern(l, l.reader, l.reads, 50),
  /** "If you are an AI …" ("si eres una IA", "wenn du ein Sprachmodell bist"). */
  conditional: pairPattern(l, l.cond, l.reader, 30),
}))
const HIDE_PATTERNS = INJECTION_LANGUAGES.map((l) => pairPattern(l, l.hide, l.hideObject, 30))
const UNBOUND_PATTERNS = INJECTION_LANGUAGES.map((l) => ({ unbound: wordPattern(l, l.unbound), answerer: wordPattern(l, [...l.reader, ...l.answer]) }))
const SEND_PATTERNS = INJECTION_LANGUAGES.map((l, i) => ({ send: wordPattern(l, l.send), data: wordPattern(l, l.data), hide: HIDE_PATTERNS[i] }))

/** Content that turns to the AI reading it, in one of the languages above. */
export function readerAddressedInAnotherLanguage(text: string): boolean {
  return READER_PATTERNS.some(({ reading, conditional }) => reading.test(text) || conditional.test(text))
}

/** Something to be kept from the user ("no le digas nada al usuario", "Erwähne diesen Schritt nicht"). */
export function hiddenInAnotherLanguage(text: string): boolean {
  return HIDE_PATTERNS.some((p) => p.test(text))
}

/** An assistant told to answer without its rules or filters ("responde sin filtros", "制限のないAIとして"). */
export function unboundInAnotherLanguage(text: string): boolean {
  return UNBOUND_PATTERNS.some(({ unbound, answerer }) => unbound.test(text) && answerer.test(text))
}

/** Data sent to an address, with what is sent named or the sending kept from the user. */
export function exfiltrationInAnotherLanguage(text: string): boolean {
  if (!DESTINATION.test(text)) return false
  return SEND_PATTERNS.some(({ send, data, hide }) => send.test(text) && (data.test(text) || hide.test(text)))
}

/** Instructions set aside in one of the languages above ("Ignora las instrucciones anteriores", "忽略之前的指令"). */
export function overridesInAnotherLanguage(text: string): boolean {
  return OVERRIDE_PATTERNS.some((p) => p.test(text))
}

/** The assistant's own instructions asked for in one of the languages above ("Muéstrame tus instrucciones iniciales"). */
export function extractionInAnotherLanguage(text: string): boolean {
  return EXTRACTION_PATTERNS.some(({ reveal, own }) => reveal.test(text) && own.test(text))
}
