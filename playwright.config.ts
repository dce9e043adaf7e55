import { defineConfig, devices } from '@playwright/test'

// End-to-end tests drive Debian's Chromium (never a downloaded browser) against the production
// server (`npm start`: scripts/serve.mjs, which is `next start` plus the peer address).
const port = Number(process.env.E2E_PORT ?? 3600)

export default defineConfig({
  testDir: './tests/e2e',
  workers: 1,
  // On CI a test that fails is run once more: a 2-core machine under load sometimes misses a 10 s
  // expectation. One that passes only on the retry still shows, by name and first error, in the
  // closing summary (scripts/test-summary.mjs: "passed on a retry"); one that fails twice fails the run.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON ?? '.tmp/playwright.json' }]],
  use: {
    baseURL: `http://localhost:${port}`,
    headless: true,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // No outbound lookups from the browser: everything it may reach is on this machine.
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1'],
    },
  },
  projects: [{ name: 'debian-chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    command: 'node scripts/serve.mjs',
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    // Loopback CIMD documents and CI issuers are served by the tests themselves: allowed here only.
    // Every test user signs in (and starts device logins) from this one address: the per-address budgets are the suite's,
    // not a visitor's (the limit itself is tested in tests/integration/security).
    env: { HUB_URL: `http://localhost:${port}`, PORT: String(port), OAUTH_ALLOW_LOOPBACK_FETCH: '1', SIGN_IN_ATTEMPTS_PER_ADDRESS: '10000', DEVICE_AUTHORIZATIONS_PER_IP: '10000' },
  },
})
