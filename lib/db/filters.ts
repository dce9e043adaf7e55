// Filters that SQLite and PostgreSQL answer alike, as fragments of hand-written statements
// (lib/db/statements): a column holds, starts with or ends with a text whatever the case of its
// letters, the text taken literally; a column's value is one of a list.
//
// Not Prisma's `contains`, `startsWith` and `endsWith`: Prisma writes them as LIKE with the text
// unescaped and no ESCAPE clause (prisma/orm#19506), so a "%" or "_" in a search matched any run of
// characters or any one character (a search for "%" listed every repo); and LIKE ignores the case
// of letters on SQLite but not on PostgreSQL (where `mode: 'insensitive'` would fold non-ASCII
// letters too, which SQLite's lower() does not). SQLite's LIKE has no escape character unless an
// ESCAPE clause names one, and Prisma writes none (tests/integration/listings/search.test.ts).
//
// Letters are folded to lower case on both sides, ASCII letters only: SQLite's lower() folds no
// others, and PostgreSQL's folds no others under the "C" collation, whatever the database's own.
// Repo ids are ASCII; in free text (collection titles) "É" and "é" stay two letters on both.
import { setting } from '@/lib/config/settings'
import { sql, type Sql } from '@/lib/db/statements'

export type TextMatch = 'contains' | 'startsWith' | 'endsWith'

/** As lib/db connects: SQLite for file: URLs, else PostgreSQL. */
const onSqlite = () => setting('DATABASE_URL').startsWith('file:')

/** ASCII letters to lower case, every other character as it is: what lower() does below on both databases. */
export function foldAsciiCase(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase())
}

/**
 * The LIKE pattern (ESCAPE '!') that matches `text` literally, where `match` says. The escape
 * character is not a backslash, which PostgreSQL reads in a string literal when
 * standard_conforming_strings is off.
 */
export function likePattern(text: string, match: TextMatch): string {
  const literal = foldAsciiCase(text).replace(/[!%_]/g, (c) => `!${c}`)
  return match === 'contains' ? `%${literal}%` : match === 'startsWith' ? `${literal}%` : `%${literal}`
}

/** The column in lower case, ASCII letters only, on either database. */
function lowered(column: Sql): Sql {
  return onSqlite() ? sql`lower(${column})` : sql`lower(${column} COLLATE "C")`
}

/**
 * Whether `column` (a fragment naming it: sql`"name"`) contains, starts with or ends with `text`,
 * ignoring the case of ASCII letters; "%", "_" and "!" are characters like any other. A text with
 * a NUL character matches nothing: no stored text holds one, and PostgreSQL refuses it as a value.
 */
export function textMatches(column: Sql, text: string, match: TextMatch): Sql {
  if (text.includes('\0')) return sql`1 = 0`
  return sql`${lowered(column)} LIKE ${likePattern(text, match)} ESCAPE '!'`
}

/**
 * Whether `column` equals one of `values`. The list is one bound value (JSON), so the statement's
 * text does not change with its length: on PostgreSQL the hand-written statements are prepared
 * once per connection under a name for each text (lib/db/statements).
 */
export function isOneOf(column: Sql, values: readonly string[]): Sql {
  // A value with a NUL character equals nothing stored (and PostgreSQL refuses it).
  const kept = values.filter((value) => !value.includes('\0'))
  if (kept.length === 0) return sql`1 = 0`
  const list = JSON.stringify(kept)
  return onSqlite() ? sql`${column} IN (SELECT "value" FROM json_each(${list}))` : sql`${column} IN (SELECT json_array_elements_text(CAST(${list} AS json)))`
}
