import type { InvisibleTextInput, ModerationEngine } from './types'

/** The two-letter general categories that Python's `unicodedata.category` can return. */
const GENERAL_CATEGORIES = new Set([
  'Lu', 'Ll', 'Lt', 'Lm', 'Lo', 'Mn', 'Mc', 'Me', 'Nd', 'Nl', 'No', 'Pc', 'Pd', 'Ps', 'Pe', 'Pi',
  'Pf', 'Po', 'Sm', 'Sc', 'Sk', 'So', 'Zs', 'Zl', 'Zp', 'Cc', 'Cf', 'Cs', 'Co', 'Cn',
])

const bannedCharacterPatterns = new Map<string, RegExp>()

/** One regex for a set of categories; unknown codes match nothing, as they never equal a category. */
function bannedCharacterPattern(categories: string[]): RegExp | null {
  const known = [...new Set(categories.filter((c) => GENERAL_CATEGORIES.has(c)))].sort()
  if (known.length === 0) return null
  const key = known.join(',')
  let pattern = bannedCharacterPatterns.get(key)
  if (!pattern) {
    pattern = new RegExp(`^[${known.map((c) => `\\p{gc=${c}}`).join('')}]$`, 'u')
    bannedCharacterPatterns.set(key, pattern)
  }
  return pattern
}

/**
 * The toolkit's rule: when the text has any character above U+007F, every character whose
 * general category is banned is reported, in order, with duplicates. Characters are code points
 * (a lone surrogate is one character of category Cs, as in Python). Categories come from Node's
 * ICU, so characters assigned after Python's Unicode version are not Cn here.
 */
export function findInvisibleCharacters({ text, bannedCategories }: InvisibleTextInput): string[] {
  if (!/[^\u0000-\u007f]/.test(text)) return []
  const pattern = bannedCharacterPattern(bannedCategories)
  if (!pattern) return []
  const found: string[] = []
  for (const character of text) {
    if (pattern.test(character)) found.push(character)
  }
  return found
}

export const invisibleTextEngine: ModerationEngine<InvisibleTextInput, string[]> = {
  name: 'offline:unicodedata',
  available: () => true,
  run: async (input) => findInvisibleCharacters(input),
}
