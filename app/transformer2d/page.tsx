import type { Metadata } from 'next'
import { sessionCaller } from '@/lib/auth/caller'
import { Transformer2DDemo } from './demo'
import { FitCheck } from './fit-check'

export const metadata: Metadata = { title: 'Transformer2DModel in the browser' }

export default async function Transformer2DPage() {
  const signedIn = (await sessionCaller()) !== null
  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-2xl font-semibold tracking-tight">Transformer2DModel in the browser</h1>
      <p className="mt-2 text-slate-600">
        diffusers&apos; Transformer2DModel (v0.37.0), built as an ONNX graph in TypeScript from a diffusers checkpoint and run
        by onnxruntime-web on WebGPU when the browser has an adapter, else on WebAssembly. The small demo models have
        seeded random weights: the output shows the pipeline working, not a trained model. They load from model repos on
        this hub, the weight files streamed into this browser&apos;s cache (a reload reads them from there) and fed to the
        runtime as graph inputs, so models past the 2 GB of one .onnx file run too; signed in, the same forward also runs on the server (<code>POST /api/transformer2d/&#123;repo&#125;</code>, the
        same graphs on onnxruntime-node), alone or side by side with the largest difference shown.
      </p>
      <Transformer2DDemo signedIn={signedIn} />
      <FitCheck />
    </div>
  )
}
