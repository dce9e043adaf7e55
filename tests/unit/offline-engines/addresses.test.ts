/** The one pattern of links and e-mail addresses that the offline engines set aside (lib/moderation/offline/addresses.ts). */
import { describe, expect, it } from 'vitest'
import { ADDRESSES } from '@/lib/moderation/offline/addresses'

const found = (text: string) => [...text.matchAll(ADDRESSES)].map((m) => m[0])

describe('links and e-mail addresses', () => {
  it('finds e-mail addresses with a host of two labels or more, and links with a scheme or www.', () => {
    expect(found('Write to ana.silva+news@mail.example.com or see https://example.com/a?b=1 and WWW.Example.org today')).toEqual([
      'ana.silva+news@mail.example.com',
      'https://example.com/a?b=1',
      'WWW.Example.org',
    ])
  })

  it('reads addresses in any script whole', () => {
    expect(found('Escreva para joão@empresa.com.br ou ana@café.fr.')).toEqual(['joão@empresa.com.br', 'ana@café.fr'])
  })

  it('leaves words with an "@" that are no address: a masked word, a handle, a price', () => {
    expect(found('Vai pró c@ralho. Thanks @maria, two @ 5 dollars, user@localhost')).toEqual([])
  })

  it('takes the address inside angle brackets, not the brackets', () => {
    expect(found('From: "IT Helpdesk" <helpdesk@c0mpany-support.example>')).toEqual(['helpdesk@c0mpany-support.example'])
  })
})
