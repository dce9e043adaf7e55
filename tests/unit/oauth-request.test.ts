// Reading OAuth parameters: a parameter named twice is refused in a JSON body as in a form.
import { describe, expect, it } from 'vitest'
import { repeatedTopLevelKey } from '@/lib/oauth/request'

describe('repeatedTopLevelKey', () => {
  it('finds a key the top-level object names twice, however it is escaped', () => {
    expect(repeatedTopLevelKey('{"code":"a","code":"b"}')).toBe('code')
    expect(repeatedTopLevelKey('{ "grant_type" : "x" , "c\\u006fde": 1, "code": 2 }')).toBe('code')
  })

  it('finds none where keys repeat only inside values, strings or nested objects', () => {
    expect(repeatedTopLevelKey('{"code":"a","state":"{\\"code\\":1, \\"code\\":2}","nested":{"code":1,"x":{"code":2}},"list":[{"code":1},{"code":2}]}')).toBeNull()
    expect(repeatedTopLevelKey('{"a\\\\":"\\"","b":"}"}')).toBeNull()
    expect(repeatedTopLevelKey('{}')).toBeNull()
  })
})
