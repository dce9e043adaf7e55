// State that must exist once per process, kept on globalThis under one key. Next loads a module
// once per bundle layer (a route handler, a server action and a page each get their own copy of
// lib/), its dev server re-evaluates modules, and `npm start`'s fast path (scripts/front.ts) calls
// the route modules of the build: a module-level Map would be one cache per copy, so a server
// action's invalidation (a rotated client secret, a new signing key) would not reach the token
// route's copy, and each copy would hold its own rate-limit slices, last-used buffer and models.
// tests/integration/hot-paths/process-state.test.ts checks that two copies of a module share it.
const KEY = Symbol.for('modhub.process-state')

type Holder = { [KEY]?: Map<string, unknown> }

/** The process's one value under `name`, created on first use by whichever copy asks first. */
export function processState<T>(name: string, create: () => T): T {
  const all = ((globalThis as Holder)[KEY] ??= new Map<string, unknown>())
  if (!all.has(name)) all.set(name, create())
  return all.get(name) as T
}
