import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { setting, settingProblems, SETTINGS, settingsMarkdownTable, type SettingName } from '@/lib/config/settings'

describe('the settings table', () => {
  it('is the README configuration table, row for row', () => {
    const readme = fs.readFileSync(path.resolve('README.md'), 'utf8')
    // On failure: `npm run settings:table` prints the table to paste into README.md.
    expect(readme).toContain(settingsMarkdownTable())
  })

  it('gives every setting its default when the variable is unset or empty', () => {
    for (const name of Object.keys(SETTINGS) as SettingName[]) {
      expect(setting(name, {})).toBe(SETTINGS[name].default)
      expect(setting(name, { [name]: '' })).toBe(SETTINGS[name].default)
    }
  })

  it('parses each kind and refuses what it cannot use, naming the setting', () => {
    expect(setting('OAUTH_TOKEN_LIMIT_PER_IP', { OAUTH_TOKEN_LIMIT_PER_IP: '7' })).toBe(7)
    expect(setting('OAUTH_ALLOW_LOOPBACK_FETCH', { OAUTH_ALLOW_LOOPBACK_FETCH: '0' })).toBe(false)
    expect(setting('TRUST_PROXY_HOPS', { TRUST_PROXY_HOPS: '1' })).toBe(1)
    expect(setting('MODERATION_AUTH', { MODERATION_AUTH: 'off' })).toBe('off')
    expect(() => setting('DEVICE_CODE_SECONDS', { DEVICE_CODE_SECONDS: '5' })).toThrow(/DEVICE_CODE_SECONDS must be an integer from 60 to 1800, got "5"/)
    expect(() => setting('MODERATION_BATCH_MAX', { MODERATION_BATCH_MAX: '1.5' })).toThrow(/MODERATION_BATCH_MAX must be an integer ≥ 1/)
    expect(() => setting('MODERATION_MODEL_LOADING', { MODERATION_MODEL_LOADING: 'sometimes' })).toThrow(/MODERATION_MODEL_LOADING must be "lazy" or "eager"/)
    expect(() => setting('OAUTH_ALLOW_LOOPBACK_FETCH', { OAUTH_ALLOW_LOOPBACK_FETCH: 'maybe' })).toThrow(/OAUTH_ALLOW_LOOPBACK_FETCH must be 1 or 0/)
    expect(settingProblems({ PORT: '0', MODERATION_AUTH: 'sometimes' })).toEqual([
      'PORT must be an integer from 1 to 65535, got "0"',
      'MODERATION_AUTH must be "required" or "off", got "sometimes"',
    ])
  })

  it('refuses free-text settings that cannot be what they name, and settings that need another', () => {
    expect(setting('HUB_URL', { HUB_URL: 'https://hub.example.org' })).toBe('https://hub.example.org')
    expect(setting('DATABASE_URL', { DATABASE_URL: 'postgres://u@db:5432/hub' })).toBe('postgres://u@db:5432/hub')
    expect(setting('S3_ENDPOINT', { S3_ENDPOINT: 'http://127.0.0.1:9000' })).toBe('http://127.0.0.1:9000')
    expect(settingProblems({ DATABASE_URL: 'garbage', HUB_URL: 'not-a-url', S3_ENDPOINT: 'not a url', STORAGE: 's3' })).toEqual([
      'DATABASE_URL must be file:<path> (SQLite) or postgresql://… (postgres:// too), got "garbage"',
      'HUB_URL must be an http:// or https:// URL (no query, fragment or credentials), got "not-a-url"',
      'S3_ENDPOINT must be an http:// or https:// URL (no query, fragment or credentials), got "not a url"',
      'STORAGE=s3 needs S3_BUCKET (the bucket the blobs live in)',
    ])
    expect(settingProblems({ DATABASE_URL: 'mysql://u@db/hub', HUB_URL: 'ftp://hub.example.org' })).toHaveLength(2)
    expect(settingProblems({ HUB_URL: 'https://hub.example.org/?x=1' })).toHaveLength(1)
    expect(settingProblems({ STORAGE: 's3', S3_BUCKET: 'blobs' })).toEqual([])
  })

  it('is the only reader of process.env in lib/ and app/', () => {
    const offenders: string[] = []
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name)
        if (entry.isDirectory()) {
          if (file !== path.join('lib', 'generated') && file !== path.join('lib', 'config')) walk(file)
        } else if (/\.tsx?$/.test(entry.name) && /process\.env\b(?!\.NEXT_RUNTIME)/.test(fs.readFileSync(file, 'utf8'))) {
          offenders.push(file)
        }
      }
    }
    walk('lib')
    walk('app')
    walk('components')
    expect(offenders).toEqual([])
  })
})
