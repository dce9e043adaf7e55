// Every page of the hub at a desktop (1366×900) and a phone (390×844) size, signed out and signed in
// with the seeded demo data: nothing wider than the viewport, no console error, a title of its own,
// and no WCAG 2.1 A/AA violation axe-core finds in the rendered page.
import { expect, test, type Page } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'
import { DEMO, signIn, watchErrors } from './helpers'

const SIZES = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const

/** A page to visit: its path (or how to find it from another page) and the title it must have. */
type Visit = { title: string | RegExp; path: string | ((page: Page) => Promise<string>) }

/** The href of the first link matching `selector` on `from`: for pages whose URL holds a generated id. */
function linkOn(from: string, selector: string) {
  return async (page: Page) => {
    await page.goto(from)
    const href = await page.locator(selector).first().getAttribute('href')
    expect(href, `a link ${selector} on ${from}`).toBeTruthy()
    return href!
  }
}

const CONSENT = '/oauth/authorize?' + new URLSearchParams({
  client_id: 'demo-notes-app', redirect_uri: 'http://localhost:4000/oauth/callback', response_type: 'code', scope: 'openid profile read-repos',
  state: 'layout', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256',
}).toString()

const SIGNED_OUT: Visit[] = [
  { path: '/', title: 'ModHub · open model hub for responsible AI' },
  { path: '/models', title: 'Models · ModHub' },
  { path: '/datasets', title: 'Datasets · ModHub' },
  { path: '/spaces', title: 'Spaces · ModHub' },
  { path: '/login', title: 'Sign in · ModHub' },
  { path: '/join', title: 'Sign up · ModHub' },
  { path: '/alice', title: 'alice · ModHub' },
  { path: '/acme-ai', title: 'acme-ai · ModHub' },
  { path: '/alice/toxicity-tiny', title: 'alice/toxicity-tiny · ModHub' },
  { path: '/acme-ai/guardrail-base', title: 'acme-ai/guardrail-base · ModHub' },
  { path: '/datasets/bob/gated-corpus', title: 'bob/gated-corpus · ModHub' },
  { path: '/spaces/open-lab/moderation-demo', title: 'open-lab/moderation-demo · ModHub' },
  { path: linkOn('/alice', 'a[href^="/collections/alice/"]'), title: 'Responsible AI picks · alice · ModHub' },
  { path: '/rai/v1/raimoderationmodels/docs', title: 'Moderation API · ModHub' },
  { path: '/playground', title: 'Moderation playground · ModHub' },
  { path: '/transformer2d', title: 'Transformer2DModel in the browser · ModHub' },
]

const SIGNED_IN_AS_ALICE: Visit[] = [
  { path: '/', title: 'ModHub · open model hub for responsible AI' },
  { path: '/alice', title: 'alice · ModHub' },
  { path: '/alice/toxicity-tiny', title: 'alice/toxicity-tiny · ModHub' },
  { path: '/acme-ai/guardrail-base', title: 'acme-ai/guardrail-base · ModHub' },
  { path: '/datasets/alice/private-notes', title: 'alice/private-notes · ModHub' },
  { path: linkOn('/acme-ai', 'a[href^="/collections/acme-ai/"]'), title: 'Internal evaluation · acme-ai · ModHub' },
  { path: '/new', title: 'New repository · ModHub' },
  { path: '/collections/new', title: 'New collection · ModHub' },
  { path: '/organizations/new', title: 'New organization · ModHub' },
  { path: '/organizations/acme-ai/settings', title: 'acme-ai settings · ModHub' },
  { path: '/organizations/acme-ai/apps', title: 'acme-ai OAuth apps · ModHub' },
  { path: linkOn('/organizations/acme-ai/apps', 'a[href^="/organizations/acme-ai/apps/"]'), title: /^\S.* · OAuth apps of acme-ai · ModHub$/ },
  { path: '/organizations/acme-ai/audit', title: 'acme-ai audit log · ModHub' },
  { path: '/settings/profile', title: 'Profile settings · ModHub' },
  { path: '/settings/password', title: 'Password settings · ModHub' },
  { path: '/settings/tokens', title: 'Access tokens · ModHub' },
  { path: '/settings/organizations', title: 'Organizations · ModHub' },
  { path: '/settings/applications', title: 'OAuth apps · ModHub' },
  { path: linkOn('/settings/applications', 'a[href^="/settings/applications/"]'), title: /^\S.* · OAuth apps · ModHub$/ },
  { path: '/settings/authorized-apps', title: 'Authorized apps · ModHub' },
  { path: '/settings/publishers', title: 'Trusted publishers · ModHub' },
  { path: '/settings/access-requests', title: 'Access requests · ModHub' },
  { path: '/oauth/device/verify', title: 'Connect a device · ModHub' },
  { path: CONSENT, title: 'Authorize app · ModHub' },
  { path: '/rai/v1/raimoderationmodels/docs', title: 'Moderation API · ModHub' },
  { path: '/playground', title: 'Moderation playground · ModHub' },
]

const SIGNED_IN_AS_OPERATOR: Visit[] = [{ path: '/operator', title: 'Hub operator · ModHub' }]

async function checkPage(page: Page, visit: Visit, size: string) {
  const path = typeof visit.path === 'string' ? visit.path : await visit.path(page)
  const errors = watchErrors(page)
  const response = await page.goto(path)
  expect.soft(response?.status(), `${path} answers`).toBeLessThan(400)
  // Client components render after hydration: let them settle before measuring.
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {})
  await expect.soft(page, `${path} title`).toHaveTitle(visit.title)
  const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: document.documentElement.clientWidth }))
  expect.soft(width.scroll, `${path} at ${size}: content ${width.scroll}px wide in a ${width.viewport}px viewport`).toBeLessThanOrEqual(width.viewport)
  expect.soft(errors, `${path}: console errors`).toEqual([])
  // WCAG 2.1 A and AA, as axe-core checks them in the rendered page (contrast, names, landmarks, ARIA).
  const audit = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
  const violations = audit.violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)
  expect.soft(violations, `${path} at ${size}: accessibility`).toEqual([])
  // PAGE_SCREENSHOTS=1: every page at every size under .tmp/screens/pages/, to look at.
  if (process.env.PAGE_SCREENSHOTS) {
    const name = path.replace(/\?.*$/, '').replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home'
    await page.screenshot({ path: `.tmp/screens/pages/${size}-${name}.png`, fullPage: true })
  }
  page.removeAllListeners('console')
  page.removeAllListeners('pageerror')
}

for (const size of SIZES) {
  test.describe(`${size.name} ${size.width}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } })

    test('signed out: every public page', async ({ page }) => {
      test.setTimeout(180_000)
      for (const visit of SIGNED_OUT) await checkPage(page, visit, size.name)
    })

    test('signed in: settings, organizations, OAuth and repository pages', async ({ page }) => {
      test.setTimeout(240_000)
      await signIn(page, 'alice', DEMO.alice)
      for (const visit of SIGNED_IN_AS_ALICE) await checkPage(page, visit, size.name)
    })

    test('operator page', async ({ page }) => {
      await signIn(page, 'hubops', 'hubops-demo-pass')
      for (const visit of SIGNED_IN_AS_OPERATOR) await checkPage(page, visit, size.name)
    })
  })
}
