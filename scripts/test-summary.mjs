// Adds up the JSON reports of every test run (vitest, Playwright) and prints the closing line
// CI reads: "N passed, N failed". Exits non-zero when anything failed or a report is missing.
// Above that line it names every failed test with the first line of its error, and every test that
// passed only on a retry, so a CI log whose tail is all one sees still says what broke.
import fs from 'node:fs'
import path from 'node:path'

let passed = 0
let failed = 0
let skipped = 0
let missing = 0
const failures = []
const flaky = []

/** The first non-empty line of an error message, without terminal colours, at most 300 characters. */
function firstLine(message) {
  const plain = String(message ?? '').replace(/\u001b\[[0-9;]*m/g, '')
  const line = plain.split('\n').map((l) => l.trim()).find((l) => l.length > 0) ?? ''
  return line.length > 300 ? `${line.slice(0, 297)}...` : line
}

function playwrightSpecs(suite, out = []) {
  for (const spec of suite.specs ?? []) out.push(spec)
  for (const child of suite.suites ?? []) playwrightSpecs(child, out)
  return out
}

for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) {
    console.log(`missing report: ${file} (that run did not finish)`)
    missing++
    continue
  }
  const report = JSON.parse(fs.readFileSync(file, 'utf8'))
  const run = path.basename(file, '.json').replace(/^report-/, '')
  if ('name' in report && 'passed' in report) {
    // a single check written by scripts/test.sh (the type check, the soak's invariants)
    passed += report.passed
    failed += report.failed
    if (report.failed > 0) failures.push(`[${run}] ${report.failed} failed (see its section above)`)
  } else if ('numPassedTests' in report) {
    // vitest
    passed += report.numPassedTests
    failed += report.numFailedTests
    skipped += report.numPendingTests + (report.numTodoTests ?? 0)
    for (const result of report.testResults ?? []) {
      const where = path.relative(process.cwd(), result.name)
      if (result.status === 'failed' && result.assertionResults.length === 0) {
        // A file that failed to load has no tests but is a failure.
        failed++
        failures.push(`[${run}] ${where}: did not load: ${firstLine(result.message)}`)
      }
      for (const test of result.assertionResults) {
        if (test.status === 'failed') failures.push(`[${run}] ${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`)
        // A test that passed keeps the errors of the tries before (vitest's retry): it passed on a retry.
        if (test.status === 'passed' && test.failureMessages?.length) flaky.push(`[${run}] ${where} > ${test.fullName}: first try: ${firstLine(test.failureMessages[0])}`)
      }
    }
  } else if (report.stats) {
    // Playwright
    passed += report.stats.expected + (report.stats.flaky ?? 0)
    failed += report.stats.unexpected
    skipped += report.stats.skipped
    failed += (report.errors ?? []).length
    for (const error of report.errors ?? []) failures.push(`[${run}] ${firstLine(error.message)}`)
    for (const suite of report.suites ?? []) {
      for (const spec of playwrightSpecs(suite)) {
        for (const test of spec.tests) {
          const where = `${spec.file}:${spec.line} > ${spec.title}`
          const error = test.results.flatMap((r) => r.errors ?? [])[0]
          if (test.status === 'unexpected') failures.push(`[${run}] ${where}: ${firstLine(error?.message)}`)
          if (test.status === 'flaky') flaky.push(`[${run}] ${where}: first try: ${firstLine(error?.message)}`)
        }
      }
    }
  }
}
for (const line of flaky) console.log(`passed on a retry: ${line}`)
for (const line of failures) console.log(`FAILED: ${line}`)
console.log(`${passed} passed, ${failed + missing} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(failed + missing > 0 ? 1 : 0)
