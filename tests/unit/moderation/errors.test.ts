// The model runtime is one per process (lib/config/process-state), created by whichever bundle's
// copy of lib/ asks first, so the errors it throws may be another copy's classes than the ones the
// route catches. `instanceof` must still tell them apart, or a refused private model (404) and a
// missing one (503 naming the repo) both come out as "engine failed".
import { describe, expect, it, vi } from 'vitest'

async function freshCopy() {
  vi.resetModules()
  return import('@/lib/moderation/errors')
}

describe('moderation errors from another copy of the module', () => {
  it('are instances of this copy\'s classes, by name', async () => {
    const theirs = await freshCopy()
    const ours = await freshCopy()
    expect(theirs.ModelNotFoundError).not.toBe(ours.ModelNotFoundError)
    expect(new theirs.ModelNotFoundError('x: no such model repo')).toBeInstanceOf(ours.ModelNotFoundError)
    expect(new theirs.EngineUnavailableError('toxicity', 'x@main: missing config.json')).toBeInstanceOf(ours.EngineUnavailableError)
  })

  it('and only those', async () => {
    const { EngineUnavailableError, ModelNotFoundError } = await freshCopy()
    expect(new ModelNotFoundError('x')).not.toBeInstanceOf(EngineUnavailableError)
    expect(new EngineUnavailableError()).not.toBeInstanceOf(ModelNotFoundError)
    expect(new Error('plain')).not.toBeInstanceOf(ModelNotFoundError)
    expect({ name: 'ModelNotFoundError' }).not.toBeInstanceOf(ModelNotFoundError)
  })
})
