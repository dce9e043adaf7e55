#!/usr/bin/env node
// Run after every `npm install`. The registry reachable here serves only linux builds of
// platform-specific packages (@next/swc-darwin-*, @tailwindcss/oxide-win32-*, ...), so npm leaves
// them out of package-lock.json and `npm ci` then refuses the lockfile ("Missing: ... from lock
// file"). This adds an optional placeholder, marked for its foreign os/cpu, for each optional
// dependency the lockfile names but lacks; npm ci skips those on linux.
import fs from 'node:fs'

const file = process.argv[2] ?? 'package-lock.json'
const lock = JSON.parse(fs.readFileSync(file, 'utf8'))
const packages = lock.packages
const OSES = ['darwin', 'win32', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'linux']
const CPUS = ['arm64', 'x64', 'ia32', 'arm', 'riscv64', 'ppc64', 's390x', 'loong64', 'mips64el', 'wasm32']

const placeholders = []
for (const [where, meta] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(meta.optionalDependencies ?? {})) {
    const nested = `${where ? `${where}/` : ''}node_modules/${name}`
    if (packages[nested] || packages[`node_modules/${name}`]) continue
    const words = name.split('/').pop().split('-')
    const entry = { version: String(range).replace(/^[\^~=]/, ''), optional: true }
    const os = OSES.find((o) => words.includes(o) || words.some((w) => w.startsWith(o)))
    const cpu = CPUS.find((c) => words.includes(c))
    if (os) entry.os = [os]
    if (cpu) entry.cpu = [cpu]
    if (words.includes('wasi') || words.includes('wasm32')) entry.cpu = ['wasm32']
    if (words.includes('musl') || words.includes('musleabihf')) entry.libc = ['musl']
    packages[`node_modules/${name}`] = entry
    placeholders.push(`${name}@${entry.version}`)
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))))
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`)
console.log(placeholders.length ? `added ${placeholders.length} placeholders: ${placeholders.join(', ')}` : 'lockfile complete')
