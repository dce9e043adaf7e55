// Does proxy.ts slow requests that are not server actions? Two production servers of the same
// commit, one built without proxy.ts, answer the same requests alternately; the per-request
// latency of each is compared. Usage (both builds made first, see RESULTS.md):
//   node bench/proxy/run.mjs http://localhost:3611 http://localhost:3612 [rounds]
const [without, withProxy, roundsArg] = process.argv.slice(2)
const rounds = Number(roundsArg ?? 400)
const paths = ['/api/health', '/', '/alice']

async function time(url, init) {
  const start = performance.now()
  const res = await fetch(url, init)
  await res.arrayBuffer()
  return performance.now() - start
}

const samples = { without: {}, with: {} }
for (const p of [...paths, 'action']) samples.without[p] = [], samples.with[p] = []
for (let i = 0; i < rounds; i++) {
  for (const p of paths) {
    // Alternate which server goes first, so neither always meets a warmer cache.
    const order = i % 2 ? [['without', without], ['with', withProxy]] : [['with', withProxy], ['without', without]]
    for (const [name, base] of order) samples[name][p].push(await time(base + p))
  }
}
// A same-origin server action post (unknown id: Next answers 409 either way), which proxy.ts inspects.
for (let i = 0; i < rounds / 4; i++) {
  for (const [name, base] of [['without', without], ['with', withProxy]]) {
    samples[name].action.push(await time(`${base}/login`, { method: 'POST', headers: { origin: base, 'next-action': '7f0000000000000000000000000000000000000000', 'content-type': 'text/plain;charset=UTF-8' }, body: '[]' }))
  }
}
const q = (xs, f) => [...xs].sort((a, b) => a - b)[Math.floor(f * (xs.length - 1))]
console.log('| request | n | p50 without proxy.ts | p50 with | p90 without | p90 with |')
console.log('|---|---|---|---|---|---|')
for (const p of [...paths, 'action']) {
  const a = samples.without[p], b = samples.with[p]
  const label = p === 'action' ? 'POST /login (server action, same origin)' : `GET ${p}`
  console.log(`| ${label} | ${a.length} | ${q(a, 0.5).toFixed(2)} ms | ${q(b, 0.5).toFixed(2)} ms | ${q(a, 0.9).toFixed(2)} ms | ${q(b, 0.9).toFixed(2)} ms |`)
}
