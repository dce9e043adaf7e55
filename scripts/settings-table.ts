// Prints the README's configuration table from lib/config/settings.ts (tests/unit/settings.test.ts
// fails while the README's table differs from it).
import { settingsMarkdownTable } from '../lib/config/settings'

console.log(settingsMarkdownTable())
