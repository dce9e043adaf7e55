// Names of users, organizations and repositories, with the Hub's rules.
import { z } from 'zod'

/** Paths of the hub itself, so a user or organization may not take them as a name. */
export const RESERVED_NAMES = new Set([
  'api', 'oauth', 'settings', 'login', 'logout', 'join', 'signup', 'signin', 'new', 'models', 'datasets', 'spaces',
  'collections', 'organizations', 'orgs', 'docs', 'playground', 'transformer2d', 'rai', 'admin', 'operator', 'static',
  '_next', 'public', 'ort', 'favicon.ico', 'well-known', '.well-known', 'pricing', 'blog', 'search', 'huggingface', 'modhub',
])

export const namespaceName = z
  .string()
  .min(2, 'must be at least 2 characters')
  .max(42, 'must be at most 42 characters')
  .regex(/^[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$/, 'may contain only letters, digits and single dashes, and must start and end with a letter or digit')
  .refine((n) => !n.includes('--'), 'may not contain "--"')
  .refine((n) => !RESERVED_NAMES.has(n.toLowerCase()), 'is reserved')

export const repoName = z
  .string()
  .min(1, 'must not be empty')
  .max(96, 'must be at most 96 characters')
  .regex(/^[a-zA-Z0-9][a-zA-Z0-9._-]*$/, 'may contain only letters, digits, ".", "_" and "-", and must start with a letter or digit')
  .refine((n) => !n.includes('--') && !n.includes('..'), 'may not contain "--" or ".."')
  // huggingface_hub's validate_repo_id refuses a repo id that does not end with a letter, digit or "_".
  .refine((n) => !n.endsWith('.git') && !n.endsWith('.') && !n.endsWith('-'), 'may not end with ".git", "." or "-"')

export const REPO_TYPES = ['model', 'dataset', 'space'] as const
export type RepoType = (typeof REPO_TYPES)[number]

/** URL segment of each repo type (/api/models/..., /datasets/... pages). */
export const REPO_TYPE_PLURAL: Record<RepoType, string> = { model: 'models', dataset: 'datasets', space: 'spaces' }

export function repoTypeFromPlural(plural: string): RepoType | null {
  const found = (Object.entries(REPO_TYPE_PLURAL) as [RepoType, string][]).find(([, p]) => p === plural)
  return found ? found[0] : null
}

/** A file's path in a repository as URL segments (/resolve/…, /blob/…), each percent-encoded, the slashes kept. */
export function encodedFilePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/')
}

/** The path prefix of a repo's page: models have none, as on the Hub. */
export function repoPath(type: RepoType, namespace: string, name: string): string {
  return type === 'model' ? `/${namespace}/${name}` : `/${REPO_TYPE_PLURAL[type]}/${namespace}/${name}`
}
