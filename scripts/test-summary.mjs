// Adds up the JSON reports of every test run (vitest, Playwright) and prints the closing line
// CI reads: "N passed, N failed". Exits non-zero when anything failed or a report is missing.
import fs from 'node:fs'

let passed = 0
let failed = 0
let skipped = 0
let missing = 0
for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) {
    console.log(`missing report: ${file} (that run did not finish)`)
    missing++
    continue
  }
  const report = JSON.parse(fs.readFileSync(file, 'utf8'))
  if ('name' in report && 'passed' in report) {
    // a single check written by scripts/test.sh (the type check)
    passed += report.passed
    failed += report.failed
  } else if ('numPassedTests' in report) {
    // vitest
    passed += report.numPassedTests
    failed += report.numFailedTests
    skipped += report.numPendingTests + (report.numTodoTests ?? 0)
    // A file that failed to load has no tests but is a failure.
    failed += (report.testResults ?? []).filter((r) => r.status === 'failed' && r.assertionResults.length === 0).length
  } else if (report.stats) {
    // Playwright
    passed += report.stats.expected + (report.stats.flaky ?? 0)
    failed += report.stats.unexpected
    skipped += report.stats.skipped
    failed += (report.errors ?? []).length
  }
}
console.log(`${passed} passed, ${failed + missing} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(failed + missing > 0 ? 1 : 0)
