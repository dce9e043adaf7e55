// The playground's repo picker with a private model repo (issue 15). alice publishes her own
// toxicity model into a private repo with @huggingface/hub (unmodified, her token), picks it for the
// toxicity check and runs it in this browser (WASM) and on the server side by side: both name her
// repo and agree. Signed out, the same repo is refused on the page with a clear message, and so
// are a repo that does not exist and one without the model's files. Screenshots at 1366 and 390 px.
import { createRepo, deleteRepo, uploadFiles } from '@huggingface/hub'
import { expect, test, type Page } from '@playwright/test'
import { DEMO, createToken, signIn, signOut, watchErrors } from './helpers'
import { TINY_TOXICITY_REPO, answerOf, choose, expectBothSidesAnswer, pickToxicityRepo, runChecks, tinyToxicityFiles } from './playground-helpers'

const TEXT = 'You are a wonderful person, thank you.'

test('a private model repo picked for a check runs in the browser and on the server for its owner, and is refused signed out', async ({ page, baseURL }) => {
  test.setTimeout(180_000)
  const errors = watchErrors(page)
  await signIn(page, 'alice', DEMO.alice)
  const accessToken = await createToken(page, 'publish-model', 'Write')
  const repo = `alice/my-toxicity-${Date.now() % 100000}`
  await createRepo({ repo, accessToken, hubUrl: baseURL!, private: true })
  try {
    const files = await tinyToxicityFiles(page)
    await uploadFiles({ repo, accessToken, hubUrl: baseURL!, files, commitTitle: 'My fine-tuned toxicity model' })

    await page.goto('/playground')
    await choose(page, { text: TEXT, checks: ['detoxifymodel'], mode: 'compare', device: 'wasm' })
    await pickToxicityRepo(page, repo)
    const plan = page.getByTestId('plan-detoxifymodel')
    await expect(plan).toContainText(`browser: neural:${repo}@main`)
    await expect(plan).toContainText(/commit [0-9a-f]{7}/)
    await expect(page.getByTestId('pick-error-detoxifymodel')).toHaveCount(0)
    await expectBothSidesAnswer(page, 'detoxifymodel', `neural:${repo}@main`)
    await expect(page.getByTestId('result-detoxifymodel').getByTestId('difference')).toHaveAttribute('data-agree', 'true')
    // The files came from her private repo's /resolve/ URLs, pinned to its commit.
    await expect(page.getByTestId('file-progress').filter({ hasText: `${repo}/onnx/model.onnx` })).toHaveCount(1)
    await page.setViewportSize({ width: 1366, height: 900 })
    await page.screenshot({ path: '.tmp/screens/playground-picked-1366.png', fullPage: true })
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await page.locator('main').evaluate((m) => m.scrollWidth - m.clientWidth)).toBeLessThanOrEqual(0)
    await page.screenshot({ path: '.tmp/screens/playground-picked-390.png', fullPage: true })
    await page.setViewportSize({ width: 1366, height: 900 })

    // Back to the hub's model: the check names the configured engine again.
    await page.getByRole('button', { name: "Back to the hub's model" }).click()
    await expect(plan).not.toContainText(repo)

    await signOut(page)
    await page.goto('/playground')
    await choose(page, { text: TEXT, checks: ['detoxifymodel'], device: 'wasm' })
    await pickToxicityRepo(page, repo)
    const refused = page.getByTestId('pick-error-detoxifymodel')
    await expect(refused).toHaveText(`${repo}: no such model repo, or you have no read access to it`)
    await expect(page.getByTestId('check-detoxifymodel').getByLabel(/^Model repo for Toxicity/)).toHaveAttribute('aria-invalid', 'true')
    await expect(plan).not.toContainText(repo)
    // Nor can the browser read the files directly: the hub answers as for a repo that does not exist.
    expect((await page.request.get(`/${repo}/resolve/main/config.json`)).status()).toBe(404)
    // Other bad picks, each with a message naming what is wrong.
    await pickToxicityRepo(page, 'nobody/no-such-model')
    await expect(refused).toHaveText('nobody/no-such-model: no such model repo, or you have no read access to it')
    await pickToxicityRepo(page, 'hub-models/offline-moderation')
    await expect(refused).toContainText('hub-models/offline-moderation@main: missing config.json')
    await pickToxicityRepo(page, `${TINY_TOXICITY_REPO}@no-such-branch`)
    await expect(refused).toHaveText(`${TINY_TOXICITY_REPO}: revision no-such-branch does not exist`)
    await pickToxicityRepo(page, '../../etc')
    await expect(refused).toHaveText('"../../etc": must be namespace/name or namespace/name@revision.')
    await page.setViewportSize({ width: 390, height: 844 })
    await page.screenshot({ path: '.tmp/screens/playground-pick-refused-390.png', fullPage: true })
    // A public repo works signed out too: the checks run in the browser with it.
    await pickToxicityRepo(page, TINY_TOXICITY_REPO)
    await expect(refused).toHaveCount(0)
    await runChecks(page, 120_000)
    expect(await answerOf(page, 'detoxifymodel', 'browser')).toMatchObject({ kind: 'answer', engine: `neural:${TINY_TOXICITY_REPO}@main`, device: 'wasm' })
    expect(errors).toEqual([])
  } finally {
    await deleteRepo({ repo, accessToken, hubUrl: baseURL! })
  }
})
