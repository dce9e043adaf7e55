// Every runtime setting the hub reads from its environment, in one table: name, kind, default,
// bounds and meaning. Code asks `setting('NAME')` and never reads process.env itself, so a setting
// is documented, validated and defaulted in one place (the README's configuration table is checked
// against this table by tests/unit/settings.test.ts).
//
// Values are parsed on each read (a map lookup and a parse): tests and operators may change the
// environment of a running process, and no setting is read on a path where that cost matters.

type IntSpec = { kind: 'int'; default: number; min?: number; max?: number; meaning: string }
type StringSpec = {
  kind: 'string'
  default: string
  meaning: string
  /** README text for a computed default. */
  defaultText?: string
  /** What a value must be, in words, and the test of it (a free-text setting has none). */
  format?: { accepts: string; test: (raw: string) => boolean }
}
type EnumSpec<V extends string = string> = { kind: 'enum'; values: readonly V[]; default: V; meaning: string }
type FlagSpec = { kind: 'flag'; default: boolean; meaning: string }
export type SettingSpec = IntSpec | StringSpec | EnumSpec | FlagSpec

const int = (defaultValue: number, meaning: string, bounds: { min?: number; max?: number } = {}): IntSpec => ({
  kind: 'int',
  default: defaultValue,
  min: bounds.min ?? 0,
  max: bounds.max,
  meaning,
})
const str = (defaultValue: string, meaning: string, defaultText?: string, format?: StringSpec['format']): StringSpec => ({ kind: 'string', default: defaultValue, meaning, defaultText, format })

/** An absolute http(s) URL with nothing after its path (an origin, or an endpoint). */
function isHttpUrl(raw: string): boolean {
  try {
    const url = new URL(raw)
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash && !url.username && !url.password
  } catch {
    return false
  }
}
const HTTP_URL = { accepts: 'an http:// or https:// URL (no query, fragment or credentials)', test: isHttpUrl }
const oneOf = <V extends string>(values: readonly V[], defaultValue: V, meaning: string): EnumSpec<V> => ({ kind: 'enum', values, default: defaultValue, meaning })
const flag = (defaultValue: boolean, meaning: string): FlagSpec => ({ kind: 'flag', default: defaultValue, meaning })

export const SETTINGS = {
  // The hub
  DATABASE_URL: str('file:./data/modhub.db', 'SQLite file (embedded default) or `postgresql://user@host:port/db`', undefined, {
    accepts: 'file:<path> (SQLite) or postgresql://… (postgres:// too)',
    test: (raw) => /^file:.+/.test(raw) || /^postgres(ql)?:\/\/./.test(raw),
  }),
  DATABASE_PREPARED_STATEMENTS: flag(true, 'on PostgreSQL, the hot paths\' hand-written statements are prepared once per connection under a name; `0` behind a transaction-mode pooler (PgBouncer without `max_prepared_statements`, RDS Proxy), which cannot keep them'),
  DATABASE_POOL_SIZE: int(10, 'on PostgreSQL, connections each hub process keeps open', { min: 1, max: 1000 }),
  SQLITE_WAL_CHECKPOINT_PAGES: int(10_000, 'on SQLite, the commit that takes the write-ahead log past this many pages (4 KiB each) copies it back into the database file (a checkpoint; SQLite\'s default is 1,000); fewer, larger checkpoints copy each often-written page once and sync less often', { min: 100, max: 1_000_000 }),
  PORT: int(3000, 'the port `npm start` (and `npm run hub`) listens on', { min: 1, max: 65535 }),
  HUB_URL: str('', 'public origin: OAuth issuer, links', 'http://localhost:$PORT', HTTP_URL),
  AUTH_SECRET: str('', 'signs sessions and encrypts the OpenID Connect signing keys; every instance behind a load balancer, and `npm run keys:rotate`, must use the same one (an instance whose secret cannot read the signing key does not start)', 'random, kept in `data/auth-secret`'),
  TRUST_PROXY_HOPS: int(0, 'how many reverse proxies stand in front of the hub; per-address rate limits and audit records take the client address that many entries back from the end of `X-Forwarded-For` (see [Client addresses](#client-addresses))', { max: 10 }),
  HUB_WORKERS: int(1, '`npm start` runs this many processes, each a whole hub, sharing the port (node:cluster); all state is in the database, so they serve as one, and one per CPU core lets the hub use every core (the token endpoint on 2 cores: bench/oauth/RESULTS.md); each costs one process\'s memory; a worker that dies is started again', { min: 1, max: 64 }),
  FAST_PATH: flag(true, '`npm start` answers the hot API routes (token endpoint, whoami-v2, the repo API, moderation, file resolve, LFS batch and uploads) through their route handlers without Next\'s request pipeline; `0`: Next serves every request (see [Serving](#serving))'),

  // Sign-in
  SIGN_IN_ATTEMPTS_PER_ACCOUNT: int(10, 'sign-in attempts on one account from one client address per 15 minutes (counted on the account a login names, however it is spelled; a success resets it): a stranger who guesses locks out only their own address', { min: 1 }),
  SIGN_IN_ATTEMPTS_PER_ACCOUNT_TOTAL: int(100, 'sign-in attempts on one account from all addresses together per 15 minutes (guessing spread over many addresses)', { min: 1 }),
  SIGN_IN_ATTEMPTS_PER_ADDRESS: int(50, 'sign-in attempts per client address per 15 minutes', { min: 1 }),
  SIGN_UPS_PER_ADDRESS: int(20, 'accounts the join page opens per client address per hour (refused sign-ups do not count)', { min: 1 }),

  // OAuth
  OAUTH_TOKEN_LIMIT_PER_IP: int(600, 'token requests per client address per minute (429 with Retry-After beyond)'),
  OAUTH_TOKEN_LIMIT_PER_CLIENT: int(1200, 'token requests per minute that authenticated as one client (requests naming it with a wrong secret do not count)'),
  OAUTH_TOKEN_AUTH_FAILURES_PER_IP: int(30, 'failed client authentications per client address per minute at the token endpoint'),
  OAUTH_USER_EMAIL_TOKEN_TYPE: str('urn:hub:token-type:user-email', "the hub's subject token type for organization token exchange (the Hugging Face URN is always accepted too)"),
  OAUTH_ALLOW_LOOPBACK_FETCH: flag(false, 'lets metadata documents and CI issuers live on loopback http URLs (development and tests only)'),
  OUTBOUND_FETCH_TIMEOUT_MS: int(5000, 'deadline of an outbound fetch (client metadata documents, CI issuer keys)', { min: 100 }),
  DEVICE_CODE_SECONDS: int(300, 'lifetime of a device code', { min: 60, max: 1800 }),
  DEVICE_CODE_GUESSES_PER_USER: int(20, 'wrong user codes a signed-in user may enter per 15 minutes'),
  DEVICE_CODE_GUESSES_PER_IP: int(60, 'wrong user codes per client address per 15 minutes'),
  DEVICE_AUTHORIZATIONS_PER_IP: int(30, 'device code requests (`POST /oauth/device`) per client address per 5 minutes'),

  // Repository files (README: Repository files)
  STORAGE: oneOf(['disk', 's3'] as const, 'disk', 'where blobs live: a folder on disk, or any S3-compatible store through `@aws-sdk/client-s3`'),
  STORAGE_DIR: str('', 'the disk store', '`blobs/` beside the SQLite file (`data/blobs`)'),
  S3_BUCKET: str('', 'the bucket (required with `STORAGE=s3`); several instances on PostgreSQL share it'),
  S3_ENDPOINT: str('', 'an S3-compatible endpoint (MinIO, R2, Ceph RGW); AWS when unset', undefined, HTTP_URL),
  S3_REGION: str('us-east-1', 'the store\'s region'),
  S3_ACCESS_KEY_ID: str('', 'credentials (with `S3_SECRET_ACCESS_KEY`); the AWS SDK\'s default chain when unset'),
  S3_SECRET_ACCESS_KEY: str('', 'see `S3_ACCESS_KEY_ID`'),
  S3_PREFIX: str('', 'a key prefix inside the bucket'),
  S3_FORCE_PATH_STYLE: flag(true, 'path-style addressing when `S3_ENDPOINT` is set (what most S3-compatible stores need)'),
  FILES_MAX_FILE_BYTES: int(50 * 1024 ** 3, 'largest file, LFS objects included: 413', { min: 1 }),
  FILES_MAX_INLINE_FILE_BYTES: int(10 * 1024 ** 2, 'largest file sent inline in a commit rather than through LFS: 422', { min: 1 }),
  FILES_MAX_COMMIT_BYTES: int(100 * 1024 ** 2, 'largest NDJSON commit body: 413', { min: 1 }),
  FILES_MAX_COMMIT_OPERATIONS: int(10_000, 'most operations in one commit: 422', { min: 1 }),
  FILES_MAX_REPO_FILES: int(100_000, 'most files one revision may hold: 422', { min: 1 }),
  FILES_MULTIPART_CHUNK_BYTES: int(64 * 1024 ** 2, 'part size of multipart LFS uploads (larger objects go in parts)', { min: 5 * 1024 ** 2 }),
  TRANSFORMER2D_RUNS_PER_MINUTE: int(30, 'runs of `POST /api/transformer2d/…` per account per clock minute, shared by every instance (429 with Retry-After); 0 turns the limit off'),
  TRANSFORMER2D_CONCURRENT_RUNS: int(2, 'runs (with their model loads) one process works on at once, each on a worker thread (the event loop keeps answering other requests; a model\'s weights are copied to each thread that runs it); up to four times as many wait their turn, and beyond that a run is answered 503 with Retry-After', { min: 1 }),
  TRANSFORMER2D_MAX_POSITIONS: int(16_384, 'most positions (latent pixels, patches or classes) one sample of `POST /api/transformer2d/…` may attend over on the server, and the batch times four: attention grows with their square (a 256×256 latent took 17 s of CPU on the tiny demo model); 422 beyond', { min: 1 }),

  // Moderation API
  MODERATION_AUTH: oneOf(['required', 'off'] as const, 'required', '`off` accepts requests without a token (`Authorization: None`) for trusted internal deployments'),
  MODERATION_MAX_BODY_BYTES: int(1_048_576, 'larger request bodies are answered 413', { min: 1 }),
  MODERATION_MAX_TEXT_LENGTH: int(50_000, 'longer `text` (UTF-16 code units) is a 422', { min: 1 }),
  MODERATION_MAX_LIST_ITEMS: int(256, 'longer lists (texts, labels, categories) are a 422', { min: 1 }),
  MODERATION_RATE_LIMIT_PER_MINUTE: int(600, 'requests per account (every token of a user together) per clock minute, counted in the database and shared by every instance (429 with Retry-After); 0 turns the limit off'),
  MODERATION_CHARACTERS_PER_MINUTE: int(2_000_000, 'characters of text (every string of the request bodies; a topic request its text once more per label, up to 2,048 characters a label, as the zero-shot model reads it) per account per clock minute, counted like the request limit (429 with Retry-After; a body with more than the whole budget is a 413); a request\'s CPU grows with its text, up to about a second for 50,000 characters, so this bounds what one account can take of the server; 0 turns the limit off'),

  // Moderation models
  MODELS_DIR: str('data/models', 'a folder of neural moderation models (transformers.js layout, `<dir>/<model id>/`) for a check with no `MODERATION_MODEL_*` repo: where `models:pull` without `--into` puts them (air-gapped installs)'),
  OFFLINE_MODELS_REPO: str('hub-models/offline-moderation', 'the model repo on this hub holding the offline engines\' ONNX graphs (downloaded into MODELS_CACHE_DIR on first use)'),
  OFFLINE_MODELS_REVISION: str('main', 'the branch or commit of OFFLINE_MODELS_REPO the engines run (a branch is resolved once per process)'),
  OFFLINE_MODELS_DIR: str('', 'a folder holding the offline engines\' graphs, used instead of OFFLINE_MODELS_REPO (air-gapped installs; the project ships them in `public/models/offline`)'),
  MODELS_CACHE_DIR: str('data/models-cache', 'where the server keeps the model repo revisions it loaded, in the Hugging Face cache layout'),
  // Each neural check's model as a repo on this hub (`namespace/name`, or `namespace/name@revision`; revision default
  // `main`). Unset: the model's folder under MODELS_DIR when it is installed there, the check's offline engine otherwise.
  MODERATION_MODEL_TOXICITY: str('', 'the toxicity check\'s model repo (e.g. `hub-models/unbiased-toxic-roberta-tiny`, or a mirror of `unitary/unbiased-toxic-roberta`)'),
  MODERATION_MODEL_PROMPT_INJECTION: str('', 'the prompt-injection check\'s model repo'),
  MODERATION_MODEL_TOPIC: str('', 'the restricted-topic check\'s default zero-shot model repo'),
  MODERATION_MODEL_TOPIC_MINI: str('', 'the restricted-topic check\'s small (`nliMini`) zero-shot model repo'),
  MODERATION_MODEL_EMBEDDING: str('', 'the embedding and similarity checks\' model repo'),
  MODERATION_MODEL_GIBBERISH: str('', 'the gibberish check\'s model repo'),
  MODERATION_MODEL_BANCODE: str('', 'the banned-code check\'s model repo'),
  MODERATION_MODEL_LOADING: oneOf(['lazy', 'eager'] as const, 'lazy', '`eager` loads every installed model at start; `GET /rai/v1/raimoderationmodels/health` answers 503 until they are ready'),
  MODERATION_MICROBATCH: oneOf(['on', 'off'] as const, 'on', 'micro-batching of concurrent requests to one model'),
  MODERATION_BATCH_MAX: int(32, 'most sequences in one micro-batch', { min: 1 }),
  MODERATION_BATCH_WAIT_MS: int(0, 'longest a first sequence waits for company before its batch starts (0: the next turn of the event loop)'),
  MODERATION_ORT_THREADS: int(1, 'onnxruntime threads per model session; 0 = all cores (1 measured faster under concurrent load on 2 cores: bench/moderation/RESULTS.md)'),
} as const satisfies Record<string, SettingSpec>

export type SettingName = keyof typeof SETTINGS
type ValueOf<S> = S extends IntSpec ? number : S extends FlagSpec ? boolean : S extends EnumSpec<infer V> ? V : string
export type SettingValue<N extends SettingName> = ValueOf<(typeof SETTINGS)[N]>

export type Environment = Readonly<Record<string, string | undefined>>

/** A setting whose value cannot be used; the message names the setting and what it accepts. */
export class SettingError extends Error {
  constructor(name: string, raw: string, accepts: string) {
    super(`${name} must be ${accepts}, got "${raw.slice(0, 100)}"`)
    this.name = 'SettingError'
  }
}

function parse(name: string, spec: SettingSpec, raw: string): number | boolean | string {
  switch (spec.kind) {
    case 'int': {
      const value = Number(raw)
      const min = spec.min ?? 0
      const inRange = Number.isInteger(value) && value >= min && (spec.max === undefined || value <= spec.max)
      if (!inRange) throw new SettingError(name, raw, spec.max === undefined ? `an integer ≥ ${min}` : `an integer from ${min} to ${spec.max}`)
      return value
    }
    case 'flag':
      if (['1', 'true', 'on', 'yes'].includes(raw.toLowerCase())) return true
      if (['0', 'false', 'off', 'no'].includes(raw.toLowerCase())) return false
      throw new SettingError(name, raw, '1 or 0')
    case 'enum':
      if (!spec.values.includes(raw)) throw new SettingError(name, raw, spec.values.map((v) => `"${v}"`).join(' or '))
      return raw
    case 'string':
      if (spec.format && !spec.format.test(raw)) throw new SettingError(name, raw, spec.format.accepts)
      return raw
  }
}

/** The setting's value from the environment (an unset or empty variable is the default). */
export function setting<N extends SettingName>(name: N, env: Environment = process.env): SettingValue<N> {
  const spec: SettingSpec = SETTINGS[name]
  const raw = env[name]
  if (raw === undefined || raw === '') return spec.default as SettingValue<N>
  return parse(name, spec, raw) as SettingValue<N>
}

/** Every problem with the environment's settings, for a server to report once at start. */
export function settingProblems(env: Environment = process.env): string[] {
  const problems: string[] = []
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    try {
      setting(name, env)
    } catch (error) {
      problems.push((error as Error).message)
    }
  }
  // Settings that only make sense together.
  if (env.STORAGE === 's3' && !env.S3_BUCKET) problems.push('STORAGE=s3 needs S3_BUCKET (the bucket the blobs live in)')
  return problems
}

function defaultText(spec: SettingSpec): string {
  if (spec.kind === 'string' && spec.defaultText) return spec.defaultText
  if (spec.kind === 'flag') return spec.default ? '`1`' : '`0`'
  if (spec.kind === 'string' && spec.default === '') return 'none'
  return `\`${spec.default}\``
}

/** The README's configuration table, rendered from SETTINGS (`npm run settings:table` prints it). */
export function settingsMarkdownTable(): string {
  const rows = (Object.keys(SETTINGS) as SettingName[]).map((name) => {
    const spec: SettingSpec = SETTINGS[name]
    const accepts = spec.kind === 'enum' ? ` (${spec.values.map((v) => `\`${v}\``).join(' or ')})` : spec.kind === 'int' && spec.max !== undefined ? ` (${spec.min ?? 0}–${spec.max})` : ''
    return `| \`${name}\` | ${defaultText(spec)}${accepts} | ${spec.meaning} |`
  })
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n')
}
