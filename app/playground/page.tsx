import type { Metadata } from 'next'
import { sessionCaller } from '@/lib/auth/caller'
import { browserCatalog } from '@/lib/moderation/browser/server-catalog'
import { Playground } from './playground'

export const metadata: Metadata = { title: 'Moderation playground' }
// The catalog lists the model files installed right now, and server mode depends on the session.
export const dynamic = 'force-dynamic'

export default async function PlaygroundPage() {
  const caller = await sessionCaller()
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold">Moderation playground</h1>
        <p className="max-w-3xl text-slate-700">
          Run the ten moderation checks on your own text, in this browser (neural models loaded by transformers.js from
          this hub, as from the Hugging Face Hub; on WebGPU when there is an adapter, else WebAssembly, with the same ONNX files
          the server uses) or on the server through the{' '}
          <a className="text-brand-700 underline" href="/rai/v1/raimoderationmodels/docs">moderation API</a>. Model files come
          from this hub only and stay in the browser's cache. A check that runs a model can run another model repo of this hub
          instead (your own fine-tuned one, for example): in this browser and on the server alike, with your access.
        </p>
      </header>
      <Playground catalog={await browserCatalog(caller)} signedIn={caller !== null} />
    </div>
  )
}
