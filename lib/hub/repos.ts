// Repositories (models, datasets, spaces): create, delete, look up, list; gated access requests;
// the profile page's notice after a deletion.
import { z } from 'zod'
import { db, joinSql, rows, sql, type Sql } from '@/lib/db'
import { textMatches } from '@/lib/db/filters'
import { findNamespace, type Namespace } from '@/lib/hub/namespaces'
import { roleInOrg } from '@/lib/hub/orgs'
import { repoName, repoTypeFromPlural, REPO_TYPES, type RepoType } from '@/lib/hub/names'
import { displayText } from '@/lib/display-text'
import { createRepoDecision, repoDecision, type Caller, type Decision, type RepoAction, type RepoContext } from '@/lib/policy'
import { badRequest, conflict, denial, HubError, notFound } from '@/lib/http/errors'
import { isUniqueViolation } from '@/lib/hub/namespaces'
// Listings read cards and files: lib/hub/files builds on this module, and is only called from
// inside functions here, so the modules load in either order.
import { defaultBranchCards, type CardMetadata } from '@/lib/hub/files/model-card'
import { DEFAULT_BRANCH } from '@/lib/hub/files/revisions'
import { revisionSummary, type Sibling } from '@/lib/hub/files/tree'

export type RepoRow = NonNullable<Awaited<ReturnType<typeof db.repo.findFirst>>>

export const createRepoInput = z.object({
  type: z.enum(REPO_TYPES).default('model'),
  namespace: z.string().min(1, 'must not be empty').max(42),
  name: repoName,
  private: z.boolean().default(false),
  gated: z.boolean().default(false),
  description: displayText(500, { lines: true }).default(''),
})

/** The caller's context for a repo: their role in its organization and their gated access. */
export async function repoContext(caller: Caller, repo: Pick<RepoRow, 'id' | 'ownerOrgId' | 'gated'>): Promise<RepoContext> {
  if (!caller) return { orgRole: null, gatedAccepted: false }
  const [orgRole, access] = await Promise.all([
    repo.ownerOrgId ? roleInOrg(caller.userId, repo.ownerOrgId) : Promise.resolve(null),
    repo.gated ? db.gatedAccess.findUnique({ where: { repoId_userId: { repoId: repo.id, userId: caller.userId } } }) : Promise.resolve(null),
  ])
  return { orgRole, gatedAccepted: access?.status === 'accepted' }
}

/** Whether the caller may see the repo at all (private repos of others are not even listed). */
export async function mayViewRepo(caller: Caller, repo: RepoRow): Promise<boolean> {
  return repoDecision(caller, 'view', repo, await repoContext(caller, repo)) === 'allow'
}

/**
 * The repo at a path: what `db.repo.findUnique` on (type, namespace, name) answers, read as one
 * hand-written statement, because every repo API call and download starts here and Prisma's query
 * layer costs about twice the CPU of the same SELECT (bench/api/RESULTS.md).
 * tests/integration/hot-paths/repo-lookup.test.ts holds the two to the same rows.
 */
/** Every column of a repo row, as Prisma reads it (both lookups below answer the same row shape). */
const REPO_COLUMNS = sql`"id", "type", "namespace", "name", "private", "gated", "description", "ownerUserId", "ownerOrgId",
  "createdById", "createdByApp", "createdAt", "updatedAt"`

export async function findRepo(type: string, namespace: string, name: string): Promise<RepoRow | null> {
  const [row] = await rows<RepoRow>(sql`
    SELECT ${REPO_COLUMNS} FROM "Repo" WHERE "type" = ${type} AND "namespace" = ${namespace} AND "name" = ${name}`)
  return row ?? (await findRepoIgnoringCase(type, namespace, name))
}

/**
 * As on the Hub, a repo id's case does not matter: "Alice/Toxicity-Tiny" is alice/toxicity-tiny, and
 * no two repos of a type differ only in case (the unique index on type, lower(namespace) and
 * lower(name), migration 20261201070000_repo_names_ignoring_case). Asked only when the exact spelling
 * is not found, and only for a namespace someone holds (names are ASCII, which both databases'
 * lower() folds; the WHERE below is that index's expressions, so both read it).
 */
export async function findRepoIgnoringCase(type: string, namespace: string, name: string): Promise<RepoRow | null> {
  // A namespace nobody holds in any case (most misses: a typo, a probe) ends with one indexed read.
  const [claimed] = await rows<{ key: string }>(sql`SELECT "key" FROM "NameClaim" WHERE "key" = ${namespace.toLowerCase()}`)
  if (!claimed) return null
  const found = await rows<RepoRow>(sql`
    SELECT ${REPO_COLUMNS} FROM "Repo" WHERE "type" = ${type} AND lower("namespace") = ${namespace.toLowerCase()} AND lower("name") = ${name.toLowerCase()}
    LIMIT 2`)
  return found.length === 1 ? found[0]! : null
}

/** Finds a repo and checks the caller may take `action` on it; throws 401/403/404 otherwise. */
export async function authorizedRepo(caller: Caller, type: RepoType, namespace: string, name: string, action: RepoAction) {
  const repo = await findRepo(type, namespace, name)
  if (!repo) throw repoNotFound()
  const ctx = await repoContext(caller, repo)
  const decision = repoDecision(caller, action, repo, ctx)
  if (decision !== 'allow') throw repoDenial(decision, repo, action)
  return { repo, ctx }
}

/** Missing, or private and not the caller's to see: one answer, with the Hub's X-Error-Code. */
const repoNotFound = () => new HubError(404, 'Repository not found', 'RepoNotFound')

/**
 * A refusal with the X-Error-Code huggingface_hub turns into its error classes (RepositoryNotFoundError,
 * GatedRepoError): without one, a refused HEAD of a download reads as a network failure there.
 */
function repoDenial(decision: Exclude<Decision, 'allow'>, repo: { type: string; namespace: string; name: string; gated: boolean }, action: RepoAction): HubError {
  if (decision === 'not-found') return repoNotFound()
  if (repo.gated && action === 'read') {
    const what = `${repo.type} ${repo.namespace}/${repo.name}`
    return decision === 'unauthenticated'
      ? new HubError(401, `Access to ${what} is restricted: sign in, and request access on its page`, 'GatedRepo')
      : new HubError(403, `Access to ${what} is restricted and you are not in its authorized list: request access on its page`, 'GatedRepo')
  }
  return denial(decision)
}

export async function createRepo(caller: Caller, input: z.input<typeof createRepoInput>) {
  const data = createRepoInput.parse(input)
  if (!caller) throw denial('unauthenticated')
  const owner = await findNamespace(data.namespace)
  if (!owner) throw notFound(`No user or organization named "${data.namespace}"`)
  const ownerRef =
    owner.kind === 'user'
      ? ({ kind: 'user', userId: owner.id } as const)
      : ({ kind: 'org', orgId: owner.id, role: await roleInOrg(caller.userId, owner.id) } as const)
  const decision = createRepoDecision(caller, ownerRef)
  if (decision !== 'allow') throw denial(decision === 'not-found' ? 'forbidden' : decision)
  const taken = await findRepo(data.type, owner.name, data.name)
  if (taken) throw repoTaken(taken, data.name)
  try {
    return await db.repo.create({
      data: {
        type: data.type,
        namespace: owner.name,
        name: data.name,
        private: data.private,
        gated: data.gated,
        description: data.description,
        ownerUserId: owner.kind === 'user' ? owner.id : null,
        ownerOrgId: owner.kind === 'org' ? owner.id : null,
        createdById: caller.userId,
        createdByApp: caller.principal?.appId ?? null,
      },
    })
  } catch (e) {
    // A request that created the same name, or one that differs only in case, since the check
    // above: the unique indexes refuse the second (both ignore case together), with the same 409.
    if (isUniqueViolation(e)) throw repoTaken(await findRepo(data.type, owner.name, data.name), data.name)
    throw e
  }
}

/** The 409 for a repo name that is taken, exactly or in another letter case. */
function repoTaken(taken: RepoRow | null, name: string): HubError {
  if (!taken || taken.name === name) return conflict('You already created this repo')
  return conflict(`${taken.namespace}/${taken.name} exists already: repository names must differ in more than case`)
}

export async function deleteRepo(caller: Caller, type: RepoType, namespace: string, name: string) {
  const { repo } = await authorizedRepo(caller, type, namespace, name, 'manage')
  await db.repo.delete({ where: { id: repo.id } })
}

export async function updateRepoSettings(caller: Caller, type: RepoType, namespace: string, name: string, settings: { private?: boolean; gated?: boolean }) {
  const { repo } = await authorizedRepo(caller, type, namespace, name, 'manage')
  return db.repo.update({ where: { id: repo.id }, data: settings })
}

/** The files of a revision, for callers who may read them (lib/hub/files revisionSummary). */
export type RepoContent = { sha: string | null; lastModified: Date | null; siblings: Sibling[] | null }

type CardData = Readonly<CardMetadata>

/** A card field's texts: one ("license: mit") or a list ("tags: [a, b]"); numbers as written, other values (maps) none. */
export function cardTexts(value: unknown): string[] {
  const texts = (v: unknown) => (typeof v === 'string' && v !== '' ? [v] : typeof v === 'number' && Number.isFinite(v) ? [String(v)] : [])
  return Array.isArray(value) ? value.flatMap(texts) : texts(value)
}

/** A card field that holds one non-empty text ("pipeline_tag: text-classification"), else null. */
export function cardText(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

/**
 * The tags the Hub lists for a repo, from its card: the card's own tags, its library and task,
 * `license:…`, its languages, `dataset:…` and `base_model:…`; each once, in that order.
 */
export function cardTags(card: CardData): string[] {
  return [
    ...new Set([
      ...cardTexts(card.tags),
      ...cardTexts(card.library_name),
      ...cardTexts(card.pipeline_tag),
      ...cardTexts(card.license).map((l) => `license:${l}`),
      ...cardTexts(card.language),
      ...cardTexts(card.datasets).map((d) => `dataset:${d}`),
      ...cardTexts(card.base_model).map((b) => `base_model:${b}`),
    ]),
  ]
}

/**
 * The Hub's repo-info JSON (what @huggingface/hub's modelInfo / datasetInfo / spaceInfo and the
 * listings read). `card` is README.md's metadata on the revision, which anyone who may see the repo
 * may read (a gated repo's card included); `content` (sha, files) only those who may read files.
 */
export function repoInfoJson(repo: RepoRow, content: RepoContent | null, card: CardData = {}) {
  return {
    _id: repo.id,
    id: `${repo.namespace}/${repo.name}`,
    author: repo.namespace,
    private: repo.private,
    gated: repo.gated ? 'manual' : false,
    disabled: false,
    downloads: 0,
    likes: 0,
    createdAt: repo.createdAt.toISOString(),
    lastModified: (content?.lastModified ?? repo.updatedAt).toISOString(),
    description: repo.description,
    ...(repo.type === 'model' ? { pipeline_tag: cardText(card.pipeline_tag), library_name: cardText(card.library_name) } : {}),
    ...(repo.type === 'space' ? { sdk: cardText(card.sdk) ?? 'static' } : {}),
    tags: cardTags(card),
    ...(Object.keys(card).length > 0 ? { cardData: card } : {}),
    // The commit is metadata, as on the Hub (snapshotDownload pins it before asking for the files);
    // file listings are content: only for callers who may read it (gated repos need granted access).
    ...(content ? { sha: content.sha } : {}),
    ...(content?.siblings ? { siblings: content.siblings } : {}),
  }
}

// ---------------------------------------------------------------- listings

/**
 * How a listing is ordered, as the Hub's `sort` and `direction` ask: by a column, then by the row's
 * id, so that rows with equal values keep one order from page to page.
 */
export type RepoOrder = { by: 'lastModified' | 'createdAt' | 'id'; descending: boolean }

/** Without `sort`, as before there was one: the most recently modified first. */
export const DEFAULT_REPO_ORDER: RepoOrder = { by: 'lastModified', descending: true }

const SORTS_WITH_DATA: Record<string, RepoOrder['by']> = { lastModified: 'lastModified', createdAt: 'createdAt', id: 'id' }
/**
 * The Hub's other sort keys, as the clients send them. The hub counts no downloads or likes and
 * keeps no trending score, parameter count or size: every repo has the same (none), so sorting by
 * one keeps the default order, whichever the direction.
 */
const SORTS_WITHOUT_DATA = new Set(['downloads', 'likes', 'likes30d', 'trending', 'trendingScore', 'num_parameters', 'mainSize', 'datasetsServerInfo.numRows'])

/** The order `?sort=&direction=` ask for (direction -1, the default, is descending; 1 ascending); 400 for others. */
export function repoOrder(sort: string | null, direction: string | null): RepoOrder {
  if (direction !== null && direction !== '-1' && direction !== '1') throw badRequest(`Invalid direction "${direction.slice(0, 20)}": use -1 (descending) or 1 (ascending)`)
  if (sort === null || SORTS_WITHOUT_DATA.has(sort)) return DEFAULT_REPO_ORDER
  const by = Object.hasOwn(SORTS_WITH_DATA, sort) ? SORTS_WITH_DATA[sort] : undefined
  if (!by) throw badRequest(`Invalid sort "${sort.slice(0, 40)}": use one of ${[...Object.keys(SORTS_WITH_DATA), ...SORTS_WITHOUT_DATA].join(', ')}`)
  return { by, descending: direction !== '1' }
}

/**
 * At most 1000 repos a page, as on the Hub, and as many without `limit` (huggingface_hub's list_models
 * sends none and follows the pages; @huggingface/hub's listings ask for 500).
 */
export const MAX_REPO_PAGE = 1000

/**
 * Where the next page of a listing starts: the sort values and id of the row the last page ended
 * at, with the order they were read in, as base64url JSON, opaque to clients. A row added or
 * changed meanwhile lands before or after that position by its own values: no other row is
 * skipped or shown twice for it.
 */
export function listingCursor(order: string, position: string[]): string {
  return Buffer.from(JSON.stringify({ order, position })).toString('base64url')
}

/** The position a cursor of this listing and order holds (`length` values); 400 for anything else. */
export function cursorPosition(cursor: string, order: string, length: number): string[] {
  let parsed: unknown = null
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    // not JSON: refused below
  }
  const { order: readOrder, position } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { order?: unknown; position?: unknown }
  if (!Array.isArray(position) || !position.every((v) => typeof v === 'string') || typeof readOrder !== 'string') throw invalidCursor()
  if (readOrder !== order) throw badRequest('Invalid cursor: it continues a listing in another order (sort, direction) or of other things')
  if (position.length !== length) throw invalidCursor()
  return position
}

/** A date a cursor holds; 400 when it is not one. */
export function cursorDate(value: string): Date {
  const date = new Date(value)
  // Only years both databases store (PostgreSQL refuses year -200000 with an error, a 500).
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1970 || date.getUTCFullYear() > 9999) throw invalidCursor()
  return date
}

const invalidCursor = () => badRequest('Invalid cursor: pass the one in the Link header (rel="next") of the previous page')

/** The Link header that points at the next page: the same query on the hub's public origin, with the cursor. */
export function nextPageLink(origin: string, path: string, query: URLSearchParams, cursor: string): string {
  const next = new URLSearchParams(query)
  next.set('cursor', cursor)
  return `<${origin}${path}?${next}>; rel="next"`
}

/**
 * Rows one listing request reads at most. A filter that few rows pass (tags, a task) answers a
 * shorter page, with a next link, instead of reading the whole table at once.
 */
const SCANNED_PER_PAGE = 5000
const MIN_BATCH = 100

/**
 * One page of a keyset listing: the rows after `after`, in order, that the caller may see
 * (`visible`) and the listing shows (`shown`, of those; each gets a batch and answers the rows it
 * keeps, in order), at most `limit`; `next` is where the following page starts, null when no rows
 * are left. A cursor only ever holds the position of a row the caller may see: a page cut short
 * by the scan limit ends at the last visible row read (reading on until there is one).
 */
export async function keysetPage<Row>(options: {
  limit: number
  after: string[] | null
  read: (after: string[] | null, take: number) => Promise<Row[]>
  position: (row: Row) => string[]
  visible: (rows: Row[]) => Promise<Row[]>
  shown?: (rows: Row[]) => Promise<Row[]>
}): Promise<{ rows: Row[]; next: string[] | null }> {
  const page: Row[] = []
  let after = options.after
  let scanned = 0
  let lastVisible: Row | undefined
  for (;;) {
    // One row more than the page, to know whether another page follows.
    const take = Math.max(Math.min(options.limit + 1 - page.length, SCANNED_PER_PAGE - scanned), MIN_BATCH)
    const batch = await options.read(after, take)
    scanned += batch.length
    const visible = await options.visible(batch)
    page.push(...(options.shown ? await options.shown(visible) : visible))
    if (page.length > options.limit) return { rows: page.slice(0, options.limit), next: options.position(page[options.limit - 1]!) }
    if (batch.length < take) return { rows: page, next: null }
    after = options.position(batch.at(-1)!)
    lastVisible = visible.at(-1) ?? lastVisible
    if (scanned >= SCANNED_PER_PAGE && lastVisible) return { rows: page, next: options.position(lastVisible) }
  }
}

/** The columns each order compares in turn, the repo's id last; sort=id is by owner, then name. */
const ORDER_COLUMNS = { lastModified: ['updatedAt', 'id'], createdAt: ['createdAt', 'id'], id: ['namespace', 'name', 'id'] } as const

function repoPosition(order: RepoOrder, repo: RepoRow): string[] {
  if (order.by === 'id') return [repo.namespace, repo.name, repo.id]
  return [(order.by === 'createdAt' ? repo.createdAt : repo.updatedAt).toISOString(), repo.id]
}

// The listing is one hand-written statement (lib/db/statements), for its search (idContains). Its
// texts are a fixed set, one per shape of the query (which filters, which order): on PostgreSQL
// each is prepared once per connection under a name.
const COLUMN_SQL = { updatedAt: sql`"updatedAt"`, createdAt: sql`"createdAt"`, namespace: sql`"namespace"`, name: sql`"name"`, id: sql`"id"` } as const

/** ORDER BY's list for an order: each of its columns, in its direction. */
function repoOrderBy(order: RepoOrder): Sql {
  const direction = order.descending ? sql`DESC` : sql`ASC`
  return joinSql(ORDER_COLUMNS[order.by].map((column) => sql`${COLUMN_SQL[column]} ${direction}`), ', ')
}

/** The repos after a position in this order. */
function reposAfter(order: RepoOrder, position: string[]): Sql {
  const past = order.descending ? sql`<` : sql`>`
  if (order.by === 'id') {
    const [namespace, name, id] = position as [string, string, string]
    return sql`("namespace" ${past} ${namespace} OR ("namespace" = ${namespace} AND "name" ${past} ${name}) OR ("namespace" = ${namespace} AND "name" = ${name} AND "id" ${past} ${id}))`
  }
  const at = cursorDate(position[0]!)
  const id = position[1]!
  const column = COLUMN_SQL[order.by === 'createdAt' ? 'createdAt' : 'updatedAt']
  return sql`(${column} ${past} ${at} OR (${column} = ${at} AND "id" ${past} ${id}))`
}

/**
 * The repos whose full id ("namespace/name") holds `search`, as the Hub searches: "alice/tox" finds
 * alice/toxicity-tiny. An id has one slash, so text with a slash ends the owner and starts the name.
 * Whatever the case of its letters, "%" and "_" taken literally, on both databases (lib/db/filters).
 */
function idContains(search: string): Sql {
  const slash = search.indexOf('/')
  if (slash < 0) return sql`(${textMatches(sql`"namespace"`, search, 'contains')} OR ${textMatches(sql`"name"`, search, 'contains')})`
  const [owner, name] = [search.slice(0, slash), search.slice(slash + 1)]
  if (name.includes('/')) return sql`1 = 0` // no id holds two slashes
  // An empty part matches every owner or name ("lstorg/": every repo of lstorg).
  return sql`${textMatches(sql`"namespace"`, owner, 'endsWith')} AND ${textMatches(sql`"name"`, name, 'startsWith')}`
}

export type RepoFilter = {
  type?: RepoType
  namespace?: string
  search?: string
  /** Tags the repo's card must all give (cardTags), and the task it must name (pipeline_tag). */
  tags?: string[]
  task?: string | null
}

/**
 * One page of the repos the caller may see (others' private repos are not even listed), in `order`,
 * after the position `cursor` holds; `nextCursor` continues the listing, null at its end.
 */
export async function listRepoPage(caller: Caller, filter: RepoFilter & { order: RepoOrder; limit: number; cursor: string | null }) {
  const { order } = filter
  const orderName = `repos:${order.by}:${order.descending ? -1 : 1}`
  const columns = ORDER_COLUMNS[order.by]
  const where = joinSql(
    [
      ...(filter.type !== undefined ? [sql`"type" = ${filter.type}`] : []),
      ...(filter.namespace !== undefined ? [sql`"namespace" = ${filter.namespace}`] : []),
      ...(filter.search ? [idContains(filter.search)] : []),
      // Private repos are read only where the caller may see them at all: their own and their
      // organizations' (the check per row still decides), so a scan never walks others' private rows.
      caller
        ? sql`(NOT "private" OR "ownerUserId" = ${caller.userId} OR "ownerOrgId" IN (SELECT "orgId" FROM "Membership" WHERE "userId" = ${caller.userId}))`
        : sql`NOT "private"`,
    ],
    ' AND ',
  )
  const orderBy = repoOrderBy(order)
  const tags = filter.tags ?? []
  const whoseCardMatches = async (repos: RepoRow[]) => {
    const cards = await defaultBranchCards(repos.map((r) => r.id))
    return repos.filter((repo) => {
      const card = cards.get(repo.id) ?? {}
      const repoTags = cardTags(card)
      return (!filter.task || card.pipeline_tag === filter.task) && tags.every((tag) => repoTags.includes(tag))
    })
  }
  const { rows: page, next } = await keysetPage({
    limit: filter.limit,
    after: filter.cursor ? cursorPosition(filter.cursor, orderName, columns.length) : null,
    read: (after, take) =>
      rows<RepoRow>(sql`
        SELECT ${REPO_COLUMNS} FROM "Repo" WHERE ${where}${after ? sql` AND ${reposAfter(order, after)}` : sql``}
        ORDER BY ${orderBy} LIMIT ${take}`),
    position: (repo) => repoPosition(order, repo),
    visible: async (batch) => {
      const visible: RepoRow[] = []
      for (const repo of batch) if (!repo.private || (caller && (await mayViewRepo(caller, repo)))) visible.push(repo)
      return visible
    },
    shown: tags.length > 0 || filter.task ? whoseCardMatches : undefined,
  })
  return { repos: page, nextCursor: next ? listingCursor(orderName, next) : null }
}

/** Repos the caller may see (a namespace's, a type's, those whose id holds `search`), the most recently modified first, for pages. */
export async function listRepos(caller: Caller, filter: RepoFilter & { limit?: number }) {
  return (await listRepoPage(caller, { ...filter, order: DEFAULT_REPO_ORDER, limit: filter.limit ?? 100, cursor: null })).repos
}

/** How many repos' files a listing reads at once: a page holds up to a thousand. */
const FILE_READS_AT_ONCE = 8

/**
 * The sha and files of each repo's default branch, for the repos the caller may read (gated ones
 * need granted access), as repo info gives them; null for the others. Their lastModified stays the
 * repo's, the value a listing sorts by.
 */
async function defaultBranchFiles(caller: Caller, repos: RepoRow[]): Promise<(RepoContent | null)[]> {
  const files = async (repo: RepoRow): Promise<RepoContent | null> => {
    if (repoDecision(caller, 'read', repo, await repoContext(caller, repo)) !== 'allow') return null
    const { sha, siblings } = await revisionSummary(repo.id, DEFAULT_BRANCH)
    return { sha, siblings, lastModified: null }
  }
  const found: (RepoContent | null)[] = []
  for (let i = 0; i < repos.length; i += FILE_READS_AT_ONCE) found.push(...(await Promise.all(repos.slice(i, i + FILE_READS_AT_ONCE).map(files))))
  return found
}

/**
 * GET /api/{models|datasets|spaces}: one page of repo info JSON (repoInfoJson, the card's metadata
 * included); `withFiles` (expand=siblings or sha, full=true) adds sha and siblings where the caller
 * may read them. Every other field the clients expand (private, gated, downloads, likes, tags,
 * pipeline_tag, library_name, createdAt, lastModified, cardData) is always there.
 */
export async function repoListing(caller: Caller, query: RepoFilter & { order: RepoOrder; limit: number; cursor: string | null; withFiles: boolean }) {
  const { repos, nextCursor } = await listRepoPage(caller, query)
  const [cards, files] = await Promise.all([defaultBranchCards(repos.map((r) => r.id)), query.withFiles ? defaultBranchFiles(caller, repos) : null])
  return { items: repos.map((repo, i) => repoInfoJson(repo, files?.[i] ?? null, cards.get(repo.id))), nextCursor }
}

// ---------------------------------------------------------------- gated access

export async function requestGatedAccess(caller: Caller, type: RepoType, namespace: string, name: string) {
  if (!caller) throw denial('unauthenticated')
  const { repo } = await authorizedRepo(caller, type, namespace, name, 'view')
  if (!repo.gated) throw badRequest('This repository is not gated')
  return db.gatedAccess.upsert({
    where: { repoId_userId: { repoId: repo.id, userId: caller.userId } },
    create: { repoId: repo.id, userId: caller.userId },
    update: {},
  })
}

/** Pending access requests to every gated repo the caller may manage (their own, and their organizations'), oldest first. */
export async function pendingAccessRequests(caller: NonNullable<Caller>) {
  const memberships = await db.membership.findMany({ where: { userId: caller.userId }, select: { orgId: true } })
  const candidates = await db.repo.findMany({
    where: { gated: true, OR: [{ ownerUserId: caller.userId }, { ownerOrgId: { in: memberships.map((m) => m.orgId) } }] },
  })
  const managed: RepoRow[] = []
  for (const repo of candidates) {
    if (repoDecision(caller, 'manage', repo, await repoContext(caller, repo)) === 'allow') managed.push(repo)
  }
  const requests = await db.gatedAccess.findMany({
    where: { status: 'pending', repoId: { in: managed.map((r) => r.id) } },
    include: { user: { select: { username: true } } },
    orderBy: { createdAt: 'asc' },
  })
  const byId = new Map(managed.map((r) => [r.id, r]))
  return requests.map((r) => ({ repo: byId.get(r.repoId)!, userId: r.userId, username: r.user.username, requestedAt: r.createdAt }))
}

/** The caller's own requests for access to gated repos, newest first, with their answers (repos they can no longer see are left out). */
export async function myAccessRequests(caller: NonNullable<Caller>) {
  const rows = await db.gatedAccess.findMany({ where: { userId: caller.userId }, include: { repo: true }, orderBy: { createdAt: 'desc' } })
  const visible = []
  for (const row of rows) {
    if (repoDecision(caller, 'view', row.repo, await repoContext(caller, row.repo)) === 'allow') {
      visible.push({ repo: row.repo, status: row.status as 'pending' | 'accepted' | 'rejected', requestedAt: row.createdAt, answeredAt: row.status === 'pending' ? null : row.updatedAt })
    }
  }
  return visible
}

export async function decideGatedAccess(caller: Caller, repoId: string, userId: string, status: 'accepted' | 'rejected') {
  const repo = await db.repo.findUnique({ where: { id: repoId } })
  if (!repo) throw notFound('Repository not found')
  const decision = repoDecision(caller, 'manage', repo, await repoContext(caller, repo))
  if (decision !== 'allow') throw denial(decision)
  const { count } = await db.gatedAccess.updateMany({ where: { repoId, userId }, data: { status } })
  if (count === 0) throw notFound('No access request from this user')
}

/** The repos a user manages with full (session) rights: their own, and their organizations' where they are an admin (lib/policy). */
export async function reposManagedBy(userId: string) {
  return db.repo.findMany({
    where: { OR: [{ ownerUserId: userId }, { ownerOrg: { members: { some: { userId, role: 'admin' } } } }] },
    orderBy: [{ type: 'asc' }, { namespace: 'asc' }, { name: 'asc' }],
    select: { id: true, type: true, namespace: true, name: true },
  })
}

/**
 * What the repository page may show this caller: the repo (null when it does not exist or the caller
 * may not know it does), what the caller may do, their own access request, and (for managers) the
 * pending requests.
 */
export async function repoPageView(caller: Caller, type: RepoType, namespace: string, name: string) {
  const repo = await findRepo(type, namespace, name)
  if (!repo) return null
  const ctx = await repoContext(caller, repo)
  if (repoDecision(caller, 'view', repo, ctx) !== 'allow') return null
  const may = (action: RepoAction) => repoDecision(caller, action, repo, ctx) === 'allow'
  const mayManage = may('manage')
  const [myRequest, pending] = await Promise.all([
    caller && repo.gated ? db.gatedAccess.findUnique({ where: { repoId_userId: { repoId: repo.id, userId: caller.userId } } }) : null,
    mayManage && repo.gated ? db.gatedAccess.findMany({ where: { repoId: repo.id, status: 'pending' }, include: { user: true } }) : [],
  ])
  return { repo, mayRead: may('read'), mayWrite: may('write'), mayManage, myRequest, pending }
}

/**
 * "Deleted …" after a repository or collection of this namespace was deleted (deleteRepoAction,
 * deleteCollectionAction): said only while nothing by that name exists, so a link cannot make the
 * page claim a deletion that did not happen, and only to the namespace's own user or to the
 * organization's members: they see its private repositories anyway, while to anyone else whether
 * the notice shows would tell that a private repository by that name exists.
 */
export async function deletedNotice(owner: Namespace, value: unknown, viewerId: string | null): Promise<string | null> {
  if (typeof value !== 'string' || !viewerId) return null
  const insider = owner.kind === 'user' ? viewerId === owner.id : (await roleInOrg(viewerId, owner.id)) !== null
  if (!insider) return null
  const namespace = owner.name
  const collection = /^collections\/(.+)$/.exec(value)
  if (collection) {
    const slug = collection[1]!
    if (!slug.startsWith(`${namespace}/`) || (await db.collection.findUnique({ where: { slug }, select: { id: true } }))) return null
    return 'The collection was deleted.'
  }
  const repo = /^(?:(datasets|spaces)\/)?([^/]+)\/([^/]+)$/.exec(value)
  if (!repo || repo[2] !== namespace) return null
  const type = repo[1] ? repoTypeFromPlural(repo[1])! : 'model'
  // In any letter case, as repo ids are read.
  if (await findRepo(type, namespace, repo[3]!)) return null
  return `${repo[2]}/${repo[3]} was deleted.`
}
