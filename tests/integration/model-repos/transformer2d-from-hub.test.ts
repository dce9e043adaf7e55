/**
 * Transformer2DModel.fromPretrained('namespace/name', { hubUrl, revision, subfolder, accessToken }) in Node
 * against this hub over real HTTP: a diffusers checkpoint pushed with @huggingface/hub into a private
 * repo's `transformer/` folder loads and reproduces diffusers' golden output; without a token, at a
 * missing revision, or from a repo without the files, it fails with a clear Transformer2DError.
 */
import fs from 'node:fs'
import path from 'node:path'
import { createRepo, uploadFiles } from '@huggingface/hub'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPersonalToken } from '@/lib/auth/personal-tokens'
import { createUser } from '@/lib/hub/users'
import { Transformer2DError, type FloatTensor } from '@/lib/transformer2d'
import { Transformer2DModel } from '@/lib/transformer2d/node'
import { startHubServer, type HubServer } from '../files/hub-server'
import { caseDir, compare, goldenCases, goldenForwardArgs, readTensors } from '../../unit/transformer2d/golden'

let hub: HubServer
let token: string
let commitId: string
const golden = goldenCases().find((c) => c.name === 'cont_conv_cross')!
const REPO = 't2dhub-owner/private-t2d'

beforeAll(async () => {
  const owner = await createUser({ username: 't2dhub-owner', email: 't2dhub-owner@test.dev', password: 'password-t2d' })
  token = (await createPersonalToken(owner.id, { name: 'w', role: 'write' })).token
  hub = await startHubServer()
  await createRepo({ repo: { type: 'model', name: REPO }, private: true, credentials: { accessToken: token }, hubUrl: hub.url })
  const file = (name: string) => new Blob([fs.readFileSync(path.join(caseDir(golden), name))])
  const out = await uploadFiles({
    repo: { type: 'model', name: REPO },
    credentials: { accessToken: token },
    hubUrl: hub.url,
    files: [
      { path: 'transformer/config.json', content: file('config.json') },
      { path: 'transformer/diffusion_pytorch_model.safetensors', content: file('weights.safetensors') },
    ],
  })
  commitId = out!.commit.oid
})
afterAll(async () => {
  await hub?.close()
})

describe('Transformer2DModel.fromPretrained from a hub repo', () => {
  it('loads the subfolder of a private repo with a token and matches diffusers', async () => {
    for (const revision of ['main', commitId]) {
      const model = await Transformer2DModel.fromPretrained(REPO, { hubUrl: hub.url, revision, subfolder: 'transformer', accessToken: token, threads: 1 })
      const { sample } = (await model.forward(goldenForwardArgs(golden))) as { sample: FloatTensor }
      const expected = readTensors(path.join(caseDir(golden), 'outputs.safetensors')).get('sample')!
      const { atol, rtol } = golden.recommended_tolerance
      expect(compare(sample.data, expected.data as Float32Array, atol, rtol).violations).toBe(0)
      await model.dispose()
    }
  })

  it('says which repo and what is wrong', async () => {
    const load = (name: string, options: Record<string, string | undefined>) =>
      Transformer2DModel.fromPretrained(name, { hubUrl: hub.url, subfolder: 'transformer', threads: 1, ...options }).catch((e: unknown) => e)
    const noToken = await load(REPO, {})
    expect(noToken).toBeInstanceOf(Transformer2DError)
    expect((noToken as Error).message).toContain(`${REPO}@main/transformer: config.json:`)
    const badRevision = await load(REPO, { accessToken: token, revision: 'no-such-branch' })
    expect((badRevision as Error).message).toContain(`${REPO}@no-such-branch/transformer: config.json: the repo or revision does not exist`)
    const noFiles = await load(REPO, { accessToken: token, subfolder: 'unet' })
    expect(noFiles).toBeInstanceOf(Transformer2DError)
    expect((noFiles as Error).message).toContain(`${REPO}@main/unet`)
  })
})
