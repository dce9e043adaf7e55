/**
 * Where a server's CPU went: self time of a V8 .cpuprofile (node --cpu-prof) summed by area
 * (a package under node_modules, Next's server, the app's own code, node internals, GC, idle) and
 * by function.
 *   npx tsx bench/profile-summary.ts <file.cpuprofile> [top functions, default 25]
 */
import fs from 'node:fs'

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] }

const [file, topArg] = process.argv.slice(2)
if (!file) throw new Error('usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [top]')
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const selfUs = new Map<number, number>()
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))

function area(node: Node): string {
  const { url, functionName } = node.callFrame
  if (!url) return functionName === '(idle)' ? '(idle)' : functionName === '(garbage collector)' ? '(garbage collector)' : `(${functionName || 'native'})`
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (pkg) {
    if (pkg[1] === 'next') return /compiled\//.test(url) ? 'next (bundled deps)' : 'next'
    return pkg[1]!
  }
  if (url.startsWith('node:')) return 'node internals'
  if (/\.next[^/]*\/server\/chunks/.test(url)) return 'app bundle (lib/, app/, bundled packages)'
  return url.replace(/^file:\/\//, '').split('/').slice(-2).join('/')
}

const total = [...selfUs.values()].reduce((a, b) => a + b, 0)
const busy = total - [...selfUs].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)').reduce((a, [, us]) => a + us, 0)
const areas = new Map<string, number>()
const functions = new Map<string, number>()
for (const [id, us] of selfUs) {
  const node = byId.get(id)!
  areas.set(area(node), (areas.get(area(node)) ?? 0) + us)
  const name = `${node.callFrame.functionName || '(anonymous)'} ${area(node)}`
  functions.set(name, (functions.get(name) ?? 0) + us)
}
const pct = (us: number) => `${((100 * us) / busy).toFixed(1)}%`
console.log(`busy ${(busy / 1e6).toFixed(2)} s of ${(total / 1e6).toFixed(2)} s sampled; shares are of busy time\n`)
console.log('| area | self time |\n|---|---|')
for (const [name, us] of [...areas].filter(([n]) => n !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`| ${name} | ${pct(us)} |`)
console.log('\n| function | self time |\n|---|---|')
for (const [name, us] of [...functions].filter(([n]) => !n.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 25))) console.log(`| ${name} | ${pct(us)} |`)
