// Repo names the Hub's clients accept: huggingface_hub validates every repo id before a request
// (validate_repo_id: letters, digits, "-", "_", ".", no "--" or "..", starting and ending with a
// letter, digit or "_"), so a name it refuses would make the repo unusable from Python.
import { describe, expect, it } from 'vitest'
import { repoName } from '@/lib/hub/names'

describe('repoName', () => {
  it('accepts what huggingface_hub accepts', () => {
    for (const name of ['m', 'Foo-BAR_foo.bar123', 'model_', '123', 'a.b-c_d']) expect(repoName.safeParse(name).success, name).toBe(true)
  })
  it('refuses what it refuses (a trailing "-" was accepted, then every Python call on the repo raised HFValidationError)', () => {
    for (const name of ['trail3-', 'name.', '-lead', '.lead', 'a--b', 'a..b', 'x.git', 'café', 'a/b', '']) expect(repoName.safeParse(name).success, name).toBe(false)
  })
})
