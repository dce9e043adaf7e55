// The playground with a gated model repo (issue 15). alice publishes a model into a gated repo with
// @huggingface/hub (unmodified, her token). carol, signed in, picks it for the toxicity check and is
// refused on the page with a message that says the repo is gated and where to ask; the API's
// ?model= refuses her token alike. She requests access on the repo's page, alice grants it, and the
// same pick runs in carol's browser (transformers.js, her session's requests) and on the server,
// side by side. Signed out, the repo is refused with "sign in and request access".
import { createRepo, deleteRepo, uploadFiles } from '@huggingface/hub'
import { expect, test } from '@playwright/test'
import { DEMO, createToken, signIn, signOut, watchErrors } from './helpers'
import { choose, expectBothSidesAnswer, pickToxicityRepo, tinyToxicityFiles } from './playground-helpers'

const TEXT = 'You are a wonderful person, thank you.'

test('a gated model repo runs in the browser and on the server for a user granted access, and is refused with a clear message before', async ({ page, browser, baseURL }) => {
  test.setTimeout(240_000)
  await signIn(page, 'alice', DEMO.alice)
  const accessToken = await createToken(page, 'publish-gated-model', 'Write')
  const repo = `alice/gated-toxicity-${Date.now() % 100000}`
  const response = await page.request.post('/api/repos/create', { headers: { authorization: `Bearer ${accessToken}` }, data: { name: repo.split('/')[1], type: 'model', gated: true } })
  expect(response.status()).toBe(200)
  const carolContext = await browser.newContext()
  try {
    const files = await tinyToxicityFiles(page)
    await uploadFiles({ repo, accessToken, hubUrl: baseURL!, files, commitTitle: 'A gated toxicity model' })

    const carol = await carolContext.newPage()
    const errors = watchErrors(carol)
    await signIn(carol, 'carol', DEMO.carol)
    // The moderation API takes a write token (or the write:users scope).
    const carolToken = await createToken(carol, 'moderation', 'Write')
    const gatedMessage = `${repo}: a gated model repo whose files you have not been granted access to (request access on its page, /${repo})`

    // Before access: refused on the page, by the API (her token) and by /resolve/.
    await carol.goto('/playground')
    await choose(carol, { text: TEXT, checks: ['detoxifymodel'], mode: 'compare', device: 'wasm' })
    await pickToxicityRepo(carol, repo)
    const refused = carol.getByTestId('pick-error-detoxifymodel')
    await expect(refused).toHaveText(gatedMessage)
    await expect(carol.getByTestId('plan-detoxifymodel')).not.toContainText(repo)
    const api = await carol.request.post(`/rai/v1/raimoderationmodels/detoxifymodel?model=${repo}`, { headers: { authorization: `Bearer ${carolToken}` }, data: { text: TEXT } })
    expect(api.status()).toBe(404)
    expect((await api.json()).detail).toBe(gatedMessage)
    expect((await carol.request.get(`/${repo}/resolve/main/config.json`)).status()).toBe(403)
    await carol.setViewportSize({ width: 390, height: 844 })
    await carol.screenshot({ path: '.tmp/screens/playground-gated-refused-390.png', fullPage: true })
    await carol.setViewportSize({ width: 1366, height: 900 })

    // She asks on the repo's page; alice grants it.
    await carol.goto(`/${repo}`)
    await carol.getByRole('button', { name: 'Request access' }).click()
    await expect(carol.getByRole('status').filter({ hasText: 'Access requested' })).toContainText('pending review')
    await page.goto(`/${repo}?tab=settings`)
    await page.getByRole('button', { name: 'Accept' }).click()
    await expect(page.getByText('No pending requests.')).toBeVisible()

    // Granted: the same pick runs in her browser and on the server, and they agree.
    await carol.goto('/playground')
    await choose(carol, { text: TEXT, checks: ['detoxifymodel'], mode: 'compare', device: 'wasm' })
    await pickToxicityRepo(carol, repo)
    await expect(refused).toHaveCount(0)
    await expect(carol.getByTestId('plan-detoxifymodel')).toContainText(`browser: neural:${repo}@main`)
    await expectBothSidesAnswer(carol, 'detoxifymodel', `neural:${repo}@main`)
    await expect(carol.getByTestId('file-progress').filter({ hasText: `${repo}/onnx/model.onnx` })).toHaveCount(1)
    // Her token now reads it through the API too.
    const granted = await carol.request.post(`/rai/v1/raimoderationmodels/detoxifymodel?model=${repo}`, { headers: { authorization: `Bearer ${carolToken}` }, data: { text: TEXT } })
    expect(granted.status()).toBe(200)
    await carol.screenshot({ path: '.tmp/screens/playground-gated-granted-1366.png', fullPage: true })

    // Signed out: refused, told to sign in.
    await signOut(carol)
    await carol.goto('/playground')
    await choose(carol, { text: TEXT, checks: ['detoxifymodel'], device: 'wasm' })
    await pickToxicityRepo(carol, repo)
    await expect(refused).toHaveText(`${repo}: a gated model repo whose files you have not been granted access to (sign in and request access on its page, /${repo})`)
    expect(errors).toEqual([])
  } finally {
    await carolContext.close()
    await deleteRepo({ repo, accessToken, hubUrl: baseURL! })
  }
})
